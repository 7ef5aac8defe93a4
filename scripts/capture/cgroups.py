"""The cgroup situations: a node-like tree per situation, programs attached as Cilium, runc and
systemd attach them, and real bpftool output taken from inside a private cgroup namespace."""

import hashlib
import json
import os
import socket
import subprocess
import sys

import bpf
from record import record
from scratch import Scratch

# Where the agent mounts the cgroup2 root (cilium-config `cgroup-root`); the captures mount there too.
MOUNT = "/run/cilium/cgroupv2"

# Cilium's socket-LB programs (bpf/bpf_sock.c) and the hooks they attach to.
SOCKET_LB_HOOKS = [
    ("connect4", "cil_sock4_connect"),
    ("connect6", "cil_sock6_connect"),
    ("post_bind4", "cil_sock4_post_bind"),
    ("post_bind6", "cil_sock6_post_bind"),
    ("sendmsg4", "cil_sock4_sendmsg"),
    ("sendmsg6", "cil_sock6_sendmsg"),
    ("recvmsg4", "cil_sock4_recvmsg"),
    ("recvmsg6", "cil_sock6_recvmsg"),
    ("getpeername4", "cil_sock4_getpeername"),
    ("getpeername6", "cil_sock6_getpeername"),
]

# systemd's per-unit programs on an EKS AL2023 node (IPAddressDeny= and DevicePolicy=).
SYSTEMD_UNITS = {
    "system.slice/containerd.service": [],
    "system.slice/kubelet.service": [],
    "system.slice/systemd-journald.service": [("inet_ingress", "sd_fw_ingress"), ("inet_egress", "sd_fw_egress")],
    "system.slice/systemd-logind.service": [
        ("inet_ingress", "sd_fw_ingress"),
        ("inet_egress", "sd_fw_egress"),
        ("device", "sd_devices"),
    ],
    "system.slice/systemd-networkd.service": [("device", "sd_devices")],
    "system.slice/systemd-udevd.service": [("inet_ingress", "sd_fw_ingress"), ("inet_egress", "sd_fw_egress")],
}


def _container_id(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


# The pods of the simulator's exec fixture (test/sim/exec/fixtures.ts): a burstable agent pod and a
# best-effort app pod, so the conformance test compares paths as they are (only container ids differ).
AGENT_POD_UID = "0f0e0d0c_0b0a_0908_0706_050403020100"
APP_POD_UID = "11111111_2222_3333_4444_555555555555"
AGENT_POD = f"kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod{AGENT_POD_UID}.slice"
APP_POD = f"kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod{APP_POD_UID}.slice"
AGENT_SCOPE = f"{AGENT_POD}/cri-containerd-{_container_id('cilium-agent')}.scope"
# Every container scope gets runc's unnamed device filter: the two pods' sandboxes and containers.
CONTAINER_SCOPES = [
    f"{AGENT_POD}/cri-containerd-{_container_id('cilium-sandbox')}.scope",
    AGENT_SCOPE,
    f"{APP_POD}/cri-containerd-{_container_id('web-sandbox')}.scope",
    f"{APP_POD}/cri-containerd-{_container_id('web')}.scope",
]

# The agent container before this one, in the same pod: containerd removed its scope when it ended.
PREVIOUS_AGENT_SCOPE = f"{AGENT_POD}/cri-containerd-{_container_id('cilium-agent-previous')}.scope"

HOOK_TYPES = [hook for hook, _ in SOCKET_LB_HOOKS]
PEERNAME_HOOKS = ["getpeername4", "getpeername6"]
BEFORE_PEERNAME = [hook for hook in HOOK_TYPES if hook not in PEERNAME_HOOKS]


def hooks(at: str, types: list[str] | None = None, attach: str = "link", removed: bool = False) -> dict:
    """A set of Cilium's hooks: on a cgroup (`/` is the root), all ten types or some, attached as
    links (Cilium since 1.14) or with BPF_PROG_ATTACH and the flags named (none, multi, override),
    on a live cgroup or one removed while a socket opened in it keeps it alive."""
    return dict(at=at, types=types or HOOK_TYPES, attach=attach, removed=removed)


def nested(path: str) -> dict:
    return {"nestedPath": f"/{path}"}


# name -> where Cilium's hooks are, whether they carry BTF names, runc/systemd programs, other tools'
# programs on the root, how the captures see the root (`view`), and the verdict the runbook must give.
SITUATIONS = {
    "hooks-on-root": dict(hooks=[hooks("/")], btf=True, node=True, verdict={"verdict": "pass"}),
    "hooks-on-root-kernel-names": dict(
        hooks=[hooks("/")],
        btf=False,
        node=True,
        verdict={"verdict": "pass"},
        note="no BTF: names are the kernel's, cut to 15 characters",
    ),
    "hooks-nested-only": dict(
        hooks=[hooks(AGENT_SCOPE)],
        btf=True,
        node=True,
        verdict={"verdict": "SOCKET_LB_HOOKS_NOT_ON_ROOT", **nested(AGENT_SCOPE)},
    ),
    "hooks-root-and-nested": dict(
        hooks=[hooks("/"), hooks(AGENT_SCOPE)],
        btf=True,
        node=True,
        verdict={"verdict": "pass", "info": "nested socket-LB hooks", **nested(AGENT_SCOPE)},
    ),
    "device-filters-only": dict(hooks=[], btf=True, node=True, verdict={"verdict": "SOCKET_LB_HOOKS_MISSING"}),
    "nothing-attached": dict(
        hooks=[],
        btf=True,
        node=False,
        verdict={"verdict": "SOCKET_LB_HOOKS_MISSING"},
        note="the same tree with no program anywhere",
    ),
    "foreign-named-on-root": dict(
        hooks=[hooks(AGENT_SCOPE)],
        btf=True,
        node=True,
        foreign=[("connect4", "mesh_connect4"), ("inet_ingress", "mesh_ingress"), ("device", "mesh_devices")],
        verdict={"verdict": "SOCKET_LB_HOOKS_NOT_ON_ROOT", **nested(AGENT_SCOPE)},
        note="another tool's named programs on the root (connect4, cgroup_skb, cgroup_device); Cilium's below",
    ),
    "foreign-unnamed-on-root": dict(
        hooks=[hooks(AGENT_SCOPE)],
        btf=True,
        node=True,
        foreign=[("connect4", ""), ("sendmsg4", ""), ("device", "")],
        verdict={"verdict": "SOCKET_LB_HOOKS_NOT_ON_ROOT", **nested(AGENT_SCOPE)},
        note="unnamed programs on the root's socket hooks, where every other program is named; Cilium's below",
    ),
    **{
        f"legacy-{flags}-on-root": dict(
            hooks=[hooks("/", attach=flags)],
            btf=True,
            node=True,
            verdict={"verdict": "pass"},
            note=f"Cilium's programs attached with BPF_PROG_ATTACH, flags {flags}, no links",
        )
        for flags in ("none", "multi", "override")
    },
    **{
        f"legacy-{flags}-nested-only": dict(
            hooks=[hooks(AGENT_SCOPE, attach=flags)],
            btf=True,
            node=True,
            verdict={"verdict": "SOCKET_LB_HOOKS_NOT_ON_ROOT", **nested(AGENT_SCOPE)},
            note=f"Cilium's programs attached with BPF_PROG_ATTACH, flags {flags}, only on the agent's scope",
        )
        for flags in ("none", "multi", "override")
    },
    "split-root-and-scope": dict(
        hooks=[hooks(AGENT_SCOPE, BEFORE_PEERNAME), hooks("/", PEERNAME_HOOKS)],
        btf=True,
        node=True,
        verdict={"verdict": "SOCKET_LB_HOOKS_NOT_ON_ROOT", "hooks": BEFORE_PEERNAME, **nested(AGENT_SCOPE)},
        note="a restart after an upgrade that added getpeername: the old types updated in place on the scope, the new ones on the root",
    ),
    "removed-scope": dict(
        hooks=[hooks(PREVIOUS_AGENT_SCOPE, removed=True)],
        btf=True,
        node=True,
        verdict={"verdict": "SOCKET_LB_HOOKS_ON_REMOVED_CGROUP", "hooks": HOOK_TYPES},
        note="the links' cgroup was removed while a TCP socket opened in it keeps it alive (dying): no walk reaches it",
    ),
    "removed-split": dict(
        hooks=[hooks(PREVIOUS_AGENT_SCOPE, BEFORE_PEERNAME, removed=True), hooks("/", PEERNAME_HOOKS)],
        btf=True,
        node=True,
        verdict={"verdict": "SOCKET_LB_HOOKS_ON_REMOVED_CGROUP", "hooks": BEFORE_PEERNAME},
        note="eight types on a removed (dying) cgroup, the two new ones on the root",
    ),
    "root-tmpfs": dict(
        hooks=[hooks("/")],
        btf=True,
        node=True,
        view="tmpfs",
        verdict={"verdict": "CGROUP_ROOT_NOT_CGROUP2"},
        note="a tmpfs, not cgroup2, mounted at the cgroup root: its inode is 1 too",
    ),
    "bpftool-unprivileged": dict(
        hooks=[hooks("/")],
        btf=True,
        node=True,
        view="unprivileged",
        verdict={"verdict": "could-not-check"},
        note="every command run as nobody (no CAP_BPF, CAP_NET_ADMIN or CAP_SYS_ADMIN)",
    ),
    "bpftool-missing-path": dict(
        hooks=[hooks("/")],
        btf=True,
        node=True,
        view="missing",
        verdict={"verdict": "could-not-check"},
        note="nothing at the cgroup root path",
    ),
    "bpftool-absent": dict(
        hooks=[hooks("/")],
        btf=True,
        node=True,
        view="absent",
        verdict={"verdict": "could-not-check"},
        note="each command run by sh with a PATH that has no bpftool",
    ),
}

HOST_COMMANDS = [
    ("show-root", ["bpftool", "cgroup", "show", MOUNT]),
    ("show-root-json", ["bpftool", "-j", "cgroup", "show", MOUNT]),
    ("show-root-effective", ["bpftool", "cgroup", "show", MOUNT, "effective"]),
    ("show-root-effective-json", ["bpftool", "-j", "cgroup", "show", MOUNT, "effective"]),
    ("tree-root", ["bpftool", "cgroup", "tree", MOUNT]),
    ("tree-root-json", ["bpftool", "-j", "cgroup", "tree", MOUNT]),
    ("tree-root-effective", ["bpftool", "cgroup", "tree", MOUNT, "effective"]),
    ("tree-root-effective-json", ["bpftool", "-j", "cgroup", "tree", MOUNT, "effective"]),
    ("show-agent-scope", ["bpftool", "cgroup", "show", f"{MOUNT}/{AGENT_SCOPE}"]),
    ("show-agent-scope-json", ["bpftool", "-j", "cgroup", "show", f"{MOUNT}/{AGENT_SCOPE}"]),
    ("show-agent-scope-effective", ["bpftool", "cgroup", "show", f"{MOUNT}/{AGENT_SCOPE}", "effective"]),
    ("link-show-json", ["bpftool", "-j", "-f", "link", "show"]),
    ("link-show", ["bpftool", "-f", "link", "show"]),
    ("stat-root-inode", ["stat", "-c", "%i", MOUNT]),
    ("stat-root-fstype", ["stat", "-f", "-c", "%T", MOUNT]),
    ("readlink-ns-cgroup", ["readlink", "/proc/self/ns/cgroup"]),
]
AGENT_COMMANDS = [c for c in HOST_COMMANDS if "agent-scope" not in c[0] and "link-show" not in c[0]] + [
    ("proc-self-cgroup", ["cat", "/proc/self/cgroup"]),
]


def _attach_hooks(scratch: Scratch, cgroup_dir: str, spec: dict, btf: bool, pinned: set[str]) -> None:
    """One set of Cilium's hooks. Links are pinned where Cilium pins them unless a set attached
    earlier holds that pin already (then in the bpffs the captures do not show)."""
    for attach, name in SOCKET_LB_HOOKS:
        if attach not in spec["types"]:
            continue
        fd = bpf.load(attach, name, btf_name=btf)
        scratch.keep_prog(fd)
        if spec["attach"] == "link":
            scratch.pin_link(bpf.link(fd, cgroup_dir, attach), bpf.pin, None if name in pinned else name)
            pinned.add(name)
        else:
            bpf.prog_attach(fd, cgroup_dir, attach, spec["attach"])
        os.close(fd)


def _socket_in(cgroup_dir: str) -> socket.socket:
    """A TCP socket created by a process in the cgroup (it then leaves): the socket holds the cgroup,
    as the vxlan device's socket holds the agent's old scope on a real node."""
    parent, child = socket.socketpair(socket.AF_UNIX)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only joins, opens and hands over
        try:
            with open(os.path.join(cgroup_dir, "cgroup.procs"), "w") as procs:
                procs.write(str(os.getpid()))
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socket.send_fds(child, [b"s"], [sock.fileno()])
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    _, fds, _, _ = socket.recv_fds(parent, 1, 1)
    parent.close()
    child.close()
    return socket.socket(fileno=fds[0])


def _attach_node_programs(scratch: Scratch, root: str) -> None:
    """systemd's unit programs (as links, as systemd does) and runc's device filter (prog attach)."""
    for unit, programs in SYSTEMD_UNITS.items():
        unit_dir = scratch.cgroup(f"{root}/{unit}")
        for attach, name in programs:
            fd = bpf.load(attach, name, btf_name=False)
            scratch.keep_prog(fd)
            scratch.pin_link(bpf.link(fd, unit_dir, attach), bpf.pin)
            os.close(fd)
    for scope in CONTAINER_SCOPES:
        fd = bpf.load("device", "", btf_name=False)
        scratch.keep_prog(fd)
        bpf.attach_multi(fd, scratch.cgroup(f"{root}/{scope}"), "device")
        os.close(fd)


def _attach_foreign(scratch: Scratch, root_dir: str, programs: list[tuple[str, str]]) -> None:
    """Another tool's programs on the root, attached with BPF_PROG_ATTACH and BPF_F_ALLOW_MULTI."""
    for attach, name in programs:
        fd = bpf.load(attach, name, btf_name=bool(name))
        scratch.keep_prog(fd)
        bpf.attach_multi(fd, root_dir, attach)
        os.close(fd)


def build(scratch: Scratch, situation: str) -> str:
    """The situation's tree under its own scratch cgroup, which the captures see as the root."""
    spec = SITUATIONS[situation]
    root = f"{scratch.tag}-{situation}"
    root_dir = scratch.cgroup(root)
    scratch.cgroup(f"{root}/init.scope")
    for unit in SYSTEMD_UNITS:
        scratch.cgroup(f"{root}/{unit}")
    for scope in CONTAINER_SCOPES:
        scratch.cgroup(f"{root}/{scope}")
    if spec["node"]:
        _attach_node_programs(scratch, root)
    _attach_foreign(scratch, root_dir, spec.get("foreign", []))
    pinned: set[str] = set()
    for hook_set in spec["hooks"]:
        where = hook_set["at"].strip("/")
        cgroup_dir = scratch.cgroup(f"{root}/{where}") if where else root_dir
        if hook_set["removed"]:
            scratch.keep_socket(_socket_in(cgroup_dir))
        _attach_hooks(scratch, cgroup_dir, hook_set, spec["btf"], pinned)
        if hook_set["removed"]:
            scratch.removed(cgroup_dir)
    return root_dir


def capture_view(ns_root_dir: str, commands: list, out_dir: str, cilium_bpffs: str, view: str, bpftool: str) -> list[dict]:
    """Runs the commands in a private cgroup namespace rooted at ns_root_dir and a private mount
    namespace where the situation's root is mounted at MOUNT (cgroup2, or what `view` says) and
    Cilium's bpffs at /sys/fs/bpf; `bpftool` is the build to run. Returns each command's record."""
    spec = json.dumps(
        {"commands": commands, "out_dir": out_dir, "cilium_bpffs": cilium_bpffs, "view": view, "bpftool": bpftool}
    )

    def enter_cgroup() -> None:  # unshare -C makes the caller's cgroup the namespace root
        with open(os.path.join(ns_root_dir, "cgroup.procs"), "w") as procs:
            procs.write(str(os.getpid()))

    view_run = subprocess.run(
        ["unshare", "--cgroup", "--mount", "--propagation", "private", sys.executable, __file__, spec],
        preexec_fn=enter_cgroup,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(view_run.stdout)


# How the commands run in each view: as root, as nobody, or by sh with no bpftool on its PATH.
UNPRIVILEGED = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all"]
NO_BPFTOOL_PATH = "/usr/bin:/bin"


def _bpf_mounts() -> list[str]:
    with open("/proc/self/mounts") as mounts:
        return [line.split()[1] for line in mounts if line.split()[2] == "bpf"]


def _view_main(spec: dict) -> None:
    """Inside the namespaces: a tmpfs on /run so MOUNT exists, the root on MOUNT, Cilium's bpffs
    alone on /sys/fs/bpf (bpftool -f lists pins in every bpffs it sees), then the commands."""
    subprocess.run(["mount", "-t", "tmpfs", "none", "/run"], check=True)
    view = spec["view"]
    if view != "missing":
        os.makedirs(MOUNT)
        fstype = "tmpfs" if view == "tmpfs" else "cgroup2"
        subprocess.run(["mount", "-t", fstype, "none", MOUNT], check=True)
    subprocess.run(["mount", "--bind", spec["cilium_bpffs"], "/sys/fs/bpf"], check=True)
    for mount in reversed(_bpf_mounts()):
        if mount != "/sys/fs/bpf":
            subprocess.run(["umount", "-l", mount], check=True)
    os.makedirs(spec["out_dir"], exist_ok=True)
    records = []
    for slug, argv in spec["commands"]:
        if view == "absent":
            invoke = ["env", f"PATH={NO_BPFTOOL_PATH}", "sh", "-c", " ".join(argv)]
        else:
            build = [spec["bpftool"], *argv[1:]] if argv[0] == "bpftool" else argv
            invoke = [*UNPRIVILEGED, *build] if view == "unprivileged" else build
        records.append(record(slug, argv, spec["out_dir"], invoke))
    json.dump(records, sys.stdout)


if __name__ == "__main__":
    _view_main(json.loads(sys.argv[1]))
