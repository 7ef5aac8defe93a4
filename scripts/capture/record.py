"""One command's capture: stdout and stderr byte for byte (empty files included) and its exit code."""

import os
import subprocess


def record(slug: str, argv: list[str], out_dir: str, prefix: list[str] = ()) -> dict:
    done = subprocess.run([*prefix, *argv], capture_output=True)
    for suffix, data in ((".out", done.stdout), (".err", done.stderr)):
        with open(os.path.join(out_dir, slug + suffix), "wb") as f:
            f.write(data)
    return {"slug": slug, "command": argv, "exitCode": done.returncode}
