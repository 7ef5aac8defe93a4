"""Everything the kit makes on the machine, recorded as it is made, undone in reverse, then checked gone."""

import json
import os
import subprocess
import tempfile
import time


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, check=True, capture_output=True, **kwargs)


def _fdinfo(fd: int, key: str) -> int:
    with open(f"/proc/self/fdinfo/{fd}") as info:
        for line in info:
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    raise RuntimeError(f"fd {fd} has no {key} in its fdinfo")


# Where Cilium pins its socket-LB links under its bpffs (pkg/socketlb), one pin per program name.
CILIUM_PIN_DIR = "cilium/socketlb/links/cgroup"


class Scratch:
    """A mktemp dir holding a cgroup2 mount and two bpffs mounts (one for pins the captures must not
    show, one laid out as Cilium's /sys/fs/bpf), plus the cgroups, pins, sockets and netns made."""

    def __init__(self) -> None:
        self.tag = f"cilium-capture-{os.getpid()}"
        self.dir = tempfile.mkdtemp(prefix="cilium-capture.")
        self.cgroup_mount = os.path.join(self.dir, "cgroup")
        self.bpffs = os.path.join(self.dir, "bpffs")
        self.cilium_bpffs = os.path.join(self.dir, "cilium-bpffs")
        self.mounts: list[str] = []
        self.pin_dirs: list[str] = []
        self.cgroups: list[str] = []
        self.pins: list[str] = []
        self.sockets: list = []
        self.netns: list[str] = []
        self.prog_ids: list[int] = []
        self.link_ids: list[int] = []

    def mount(self) -> None:
        """The scratch cgroup2 and bpffs mounts (inside the cleanup's reach: call it under try)."""
        self._mount("cgroup2", self.cgroup_mount)
        self._mount("bpf", self.bpffs)
        self._mount("bpf", self.cilium_bpffs)
        path = self.cilium_bpffs
        for part in CILIUM_PIN_DIR.split("/"):
            path = os.path.join(path, part)
            os.mkdir(path)
            self.pin_dirs.append(path)

    def _mount(self, fstype: str, target: str) -> None:
        os.mkdir(target)
        run(["mount", "-t", fstype, "none", target])
        self.mounts.append(target)

    def cgroup(self, path: str) -> str:
        """Creates a cgroup (and its parents) under the scratch mount; returns its directory."""
        full = self.cgroup_mount
        for part in path.strip("/").split("/"):
            full = os.path.join(full, part)
            if not os.path.isdir(full):
                os.mkdir(full)
                self.cgroups.append(full)
        return full

    def keep_prog(self, fd: int) -> None:
        self.prog_ids.append(_fdinfo(fd, "prog_id"))

    def pin_link(self, fd: int, pin, cilium_name: str | None = None) -> None:
        """Pins a link so it outlives the kit's fd: where Cilium pins it (the captures show that pin),
        or in the other bpffs (they do not)."""
        self.link_ids.append(_fdinfo(fd, "link_id"))
        path = (
            os.path.join(self.cilium_bpffs, CILIUM_PIN_DIR, cilium_name)
            if cilium_name
            else os.path.join(self.bpffs, f"link{len(self.pins)}")
        )
        pin(fd, path)
        self.pins.append(path)
        os.close(fd)

    def keep_socket(self, sock) -> None:
        """A socket opened in a cgroup: while it is open, the cgroup stays alive (dying) after rmdir."""
        self.sockets.append(sock)

    def removed(self, cgroup_dir: str) -> None:
        """rmdir of a cgroup the kit made (its sockets may keep it dying)."""
        os.rmdir(cgroup_dir)
        self.cgroups.remove(cgroup_dir)

    def checkpoint(self) -> tuple[int, int, int, int]:
        return len(self.pins), len(self.sockets), len(self.cgroups), len(self.link_ids)

    def release(self, mark: tuple[int, int, int, int]) -> None:
        """Undoes what was made since the checkpoint, and waits until its links are gone, so the next
        situation's `bpftool link show` lists only its own."""
        pins, sockets, cgroups, links = mark
        for pin in reversed(self.pins[pins:]):
            os.unlink(pin)
        for sock in reversed(self.sockets[sockets:]):
            sock.close()
        for cgroup in reversed(self.cgroups[cgroups:]):
            os.rmdir(cgroup)
        gone = self.link_ids[links:]
        del self.pins[pins:], self.sockets[sockets:], self.cgroups[cgroups:]
        for _ in range(100):
            live = {link["id"] for link in json.loads(run(["bpftool", "-j", "link", "show"]).stdout or b"[]")}
            if not live.intersection(gone):
                return
            time.sleep(0.1)
        raise RuntimeError(f"links still alive after release: {sorted(live.intersection(gone))}")

    def add_netns(self) -> str:
        name = f"{self.tag}-{len(self.netns)}"
        run(["ip", "netns", "add", name])
        self.netns.append(name)
        return name

    def cleanup(self) -> list[str]:
        """Undoes everything in reverse; returns what could not be undone (never raises)."""
        errors: list[str] = []

        def attempt(what: str, action) -> None:
            try:
                action()
            except Exception as error:  # keep going: one leftover must not strand the rest
                errors.append(f"{what}: {error}")

        for pin in reversed(self.pins):
            attempt(f"unpin {pin}", lambda p=pin: os.unlink(p))
        for sock in reversed(self.sockets):
            attempt("close socket", sock.close)
        for pin_dir in reversed(self.pin_dirs):
            attempt(f"rmdir {pin_dir}", lambda d=pin_dir: os.rmdir(d))
        for cgroup in reversed(self.cgroups):
            attempt(f"rmdir {cgroup}", lambda c=cgroup: os.rmdir(c))
        for name in reversed(self.netns):
            attempt(f"netns {name}", lambda n=name: run(["ip", "netns", "delete", n]))
        for target in reversed(self.mounts):
            attempt(f"umount {target}", lambda t=target: run(["umount", t]))
        attempt(f"rm {self.dir}", lambda: _remove_tree(self.dir))
        return errors

    def leftovers(self) -> list[str]:
        """What is still present after cleanup; programs and links are freed asynchronously, so wait a bit."""
        found: list[str] = []
        with open("/proc/self/mountinfo") as mountinfo:
            found += [f"mounted: {line.split()[4]}" for line in mountinfo if self.dir in line.split()[4]]
        found += [f"path: {p}" for p in [self.dir, *self.cgroups, *self.pins, *self.pin_dirs] if os.path.exists(p)]
        netns = run(["ip", "netns", "list"], text=True).stdout
        found += [f"netns: {n}" for n in self.netns if n in netns.split()]
        for _ in range(50):
            live = self._live_bpf_objects()
            if not live:
                break
            time.sleep(0.1)
        return found + live

    def _live_bpf_objects(self) -> list[str]:
        progs = {p["id"] for p in json.loads(run(["bpftool", "-j", "prog", "show"]).stdout or b"[]")}
        links = {link["id"] for link in json.loads(run(["bpftool", "-j", "link", "show"]).stdout or b"[]")}
        return [f"bpf prog {i}" for i in self.prog_ids if i in progs] + [
            f"bpf link {i}" for i in self.link_ids if i in links
        ]


def _remove_tree(path: str) -> None:
    if os.path.isdir(path):
        for name in os.listdir(path):
            os.rmdir(os.path.join(path, name))
        os.rmdir(path)
