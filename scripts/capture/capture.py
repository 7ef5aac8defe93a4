"""npm run capture: real bpftool and iptables output for the situations the runbooks judge,
written under test/fixtures/captured/ with a manifest. Root only; see README.md."""

import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import cgroups
import iptables
from scratch import CILIUM_PIN_DIR, Scratch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO, "test", "fixtures", "captured")
# Captures land here first and replace OUT only when the run succeeded and left nothing behind.
STAGING = f"{OUT}.partial"
TOOLS = {
    "bpftool": "apt-get install -y bpftool",
    "iptables-nft-save": "apt-get install -y iptables",
    "iptables-legacy-save": "apt-get install -y iptables",
    "ip": "apt-get install -y iproute2",
    "unshare": "apt-get install -y util-linux",
    "setpriv": "apt-get install -y util-linux",
}


def fail(message: str) -> None:
    print(f"capture: {message}", file=sys.stderr)
    sys.exit(1)


def preflight() -> None:
    if os.geteuid() != 0:
        fail("needs root (it mounts cgroup2 and bpffs, loads BPF programs, adds a netns): sudo npm run capture")
    missing = [f"{tool} ({hint})" for tool, hint in TOOLS.items() if shutil.which(tool) is None]
    if missing:
        fail(f"missing tools: {', '.join(missing)}")


def version(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True).stdout.splitlines()[0]


def bpftool_builds(argv: list[str]) -> list[dict]:
    """The system's bpftool first, then each `--bpftool PATH` (a build unpacked with dpkg -x, see
    fetch-bpftool.sh): its version line and the Debian package version it came from."""
    paths = [shutil.which("bpftool") or "bpftool"]
    for i, arg in enumerate(argv):
        if arg == "--bpftool" and i + 1 < len(argv):
            paths.append(os.path.abspath(argv[i + 1]))
    builds = []
    for path in paths:
        package = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", "bpftool"], capture_output=True, text=True
        ).stdout if path == paths[0] else os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(path))))
        # bpftool prints its argv[0] before the version: keep "bpftool vX.Y.Z" only.
        label = f"bpftool {version([path, 'version']).split()[-1]}"
        builds.append({"version": label, "package": package, "path": path})
    return builds


def _build_dir(situation: str, build: dict, default: bool) -> str:
    return f"cgroup/{situation}" + ("" if default else f"/{build['version'].split()[-1]}")


def capture_cgroups(scratch: Scratch, builds: list[dict]) -> list[dict]:
    """Each situation built, captured with every bpftool build (the other commands once), then
    taken down so the next one's `bpftool link show` lists only its own links."""
    entries = []
    for situation, spec in cgroups.SITUATIONS.items():
        mark = scratch.checkpoint()
        root_dir = cgroups.build(scratch, situation)
        view = spec.get("view", "cgroup2")
        runs = [("host", root_dir, cgroups.HOST_COMMANDS, build, i == 0) for i, build in enumerate(builds)]
        if view == "absent":
            runs = runs[:1]
        if situation == "hooks-nested-only":  # the agent restarted into its own scope's namespace
            runs.append(("agent", os.path.join(root_dir, cgroups.AGENT_SCOPE), cgroups.AGENT_COMMANDS, builds[0], True))
        for seen_from, ns_root, commands, build, default in runs:
            name = situation if seen_from == "host" else f"{situation}-agent-view"
            rel_dir = _build_dir(name, build, default)
            if not default:
                commands = [c for c in commands if c[1][0] == "bpftool"]
            records = cgroups.capture_view(
                ns_root, commands, os.path.join(STAGING, rel_dir), scratch.cilium_bpffs, view, build["path"]
            )
            for record in records:
                entries.append(
                    {
                        "kind": "cgroup",
                        "situation": name,
                        "view": seen_from,
                        "bpftool": build["version"] if record["command"][0] == "bpftool" else None,
                        "note": spec.get("note"),
                        "expected": spec["verdict"] if seen_from == "host" else None,
                        **_files(rel_dir, record),
                    }
                )
        scratch.release(mark)
    return entries


def capture_iptables(scratch: Scratch) -> list[dict]:
    entries = []
    for backend in ("nft", "legacy"):
        for name, spec in iptables.SITUATIONS.items():
            situation = f"{backend}-{name}"
            rel_dir = f"iptables/{situation}"
            for record in iptables.capture(scratch, backend, name, os.path.join(STAGING, rel_dir)):
                entries.append(
                    {
                        "kind": "iptables",
                        "situation": situation,
                        "backend": backend,
                        "ciliumChains": spec["cilium"],
                        "hostMarkRule": spec["host_mark"],
                    }
                    | _files(rel_dir, record)
                )
    return entries


def _files(rel_dir: str, record: dict) -> dict:
    slug = record.pop("slug")
    return {**record, "stdout": f"{rel_dir}/{slug}.out", "stderr": f"{rel_dir}/{slug}.err"}


def main() -> None:
    preflight()
    builds = bpftool_builds(sys.argv[1:])
    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the cleanup below still runs
    shutil.rmtree(STAGING, ignore_errors=True)
    os.makedirs(STAGING)
    scratch = Scratch()
    try:
        scratch.mount()
        entries = capture_cgroups(scratch, builds) + capture_iptables(scratch)
    finally:
        errors = scratch.cleanup()
        leftovers = scratch.leftovers()
        if errors or leftovers:
            print("capture: CLEANUP FAILED, still on this machine:", *errors, *leftovers, sep="\n  ", file=sys.stderr)
            sys.exit(2)
        if sys.exc_info()[0] is not None:
            shutil.rmtree(STAGING, ignore_errors=True)
    manifest = {
        "capturedAt": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernel": os.uname().release,
        "bpftool": builds[0]["version"],
        "bpftoolBuilds": [{"version": b["version"], "debianPackage": b["package"]} for b in builds],
        "iptables": version(["iptables-nft", "--version"]),
        "iptablesLegacy": version(["iptables-legacy", "--version"]),
        "iptablesSave": os.path.realpath(shutil.which("iptables-save") or ""),
        "cgroupMount": cgroups.MOUNT,
        "cgroupRoot": (
            "a private cgroup namespace per situation, rooted at a scratch cgroup under the real root, with "
            f"cgroup2 mounted at {cgroups.MOUNT} inside a private mount namespace: the captures show that "
            "scratch cgroup as the root, and nothing is ever attached to the machine's real root "
            "(whose inode is 1; the scratch root's is not, see stat-root-inode)"
        ),
        "agentScope": f"/{cgroups.AGENT_SCOPE}",
        "previousAgentScope": f"/{cgroups.PREVIOUS_AGENT_SCOPE}",
        "ciliumLinkPins": f"/sys/fs/bpf/{CILIUM_PIN_DIR}",
        "wallSeconds": round(time.monotonic() - started, 1),
        "captures": entries,
    }
    with open(os.path.join(STAGING, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    shutil.rmtree(OUT, ignore_errors=True)
    os.rename(STAGING, OUT)
    print(f"capture: {len(entries)} captures in {manifest['wallSeconds']}s under {os.path.relpath(OUT, REPO)}/")


if __name__ == "__main__":
    main()
