"""One command's capture: stdout and stderr byte for byte (empty files included) and its exit code."""

import os
import subprocess


def record(slug: str, argv: list[str], out_dir: str, invoke: list[str] | None = None) -> dict:
    """Runs `invoke` (by default argv itself: another bpftool build, setpriv or sh may stand in front)
    and records it under argv, the command as the agent types it."""
    done = subprocess.run(invoke or argv, capture_output=True)
    for suffix, data in ((".out", done.stdout), (".err", done.stderr)):
        with open(os.path.join(out_dir, slug + suffix), "wb") as f:
            f.write(data)
    return {"slug": slug, "command": argv, "exitCode": done.returncode}
