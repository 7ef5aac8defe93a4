"""The cgroup situations: a node-like tree per situation, programs attached as Cilium, runc and
systemd attach them, and real bpftool output taken from inside a private cgroup namespace."""

import hashlib
import json
import os
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

# name -> where Cilium's hooks are, whether they carry BTF names, runc/systemd programs, verdict.
SITUATIONS = {
    "hooks-on-root": dict(hooks=["/"], btf=True, node=True, verdict={"verdict": "pass"}),
    "hooks-on-root-kernel-names": dict(
        hooks=["/"],
        btf=False,
        node=True,
        verdict={"verdict": "pass"},
        note="no BTF: names are the kernel's, cut to 15 characters",
    ),
    "hooks-nested-only": dict(
        hooks=[AGENT_SCOPE],
        btf=True,
        node=True,
        verdict={"verdict": "SOCKET_LB_HOOKS_NOT_ON_ROOT", "nestedPath": f"/{AGENT_SCOPE}"},
    ),
    "hooks-root-and-nested": dict(
        hooks=["/", AGENT_SCOPE],
        btf=True,
        node=True,
        verdict={"verdict": "pass", "info": "nested socket-LB hooks", "nestedPath": f"/{AGENT_SCOPE}"},
    ),
    "device-filters-only": dict(
        hooks=[], btf=True, node=True, verdict={"verdict": "SOCKET_LB_HOOKS_MISSING"}
    ),
    "nothing-attached": dict(
        hooks=[],
        btf=True,
        node=False,
        verdict={"verdict": "SOCKET_LB_HOOKS_MISSING"},
        note="the same tree with no program anywhere",
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
    ("stat-root-inode", ["stat", "-c", "%i", MOUNT]),
    ("readlink-ns-cgroup", ["readlink", "/proc/self/ns/cgroup"]),
]
AGENT_COMMANDS = [c for c in HOST_COMMANDS if "agent-scope" not in c[0]] + [
    ("proc-self-cgroup", ["cat", "/proc/self/cgroup"]),
]


def _attach_hooks(scratch: Scratch, cgroup_dir: str, btf: bool) -> None:
    for attach, name in SOCKET_LB_HOOKS:
        fd = bpf.load(attach, name, btf_name=btf)
        scratch.keep_prog(fd)
        scratch.pin_link(bpf.link(fd, cgroup_dir, attach), bpf.pin)
        os.close(fd)


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
    for where in spec["hooks"]:
        _attach_hooks(scratch, os.path.join(root_dir, where.strip("/")), spec["btf"])
    return root_dir


def capture_view(ns_root_dir: str, commands: list, out_dir: str) -> list[dict]:
    """Runs the commands in a private cgroup namespace rooted at ns_root_dir (and a private mount
    namespace where cgroup2 is mounted at MOUNT); returns each command's record."""
    spec = json.dumps({"commands": commands, "out_dir": out_dir})

    def enter_cgroup() -> None:  # unshare -C makes the caller's cgroup the namespace root
        with open(os.path.join(ns_root_dir, "cgroup.procs"), "w") as procs:
            procs.write(str(os.getpid()))

    view = subprocess.run(
        ["unshare", "--cgroup", "--mount", "--propagation", "private", sys.executable, __file__, spec],
        preexec_fn=enter_cgroup,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(view.stdout)


def _view_main(spec: dict) -> None:
    """Inside the namespaces: a tmpfs on /run so MOUNT exists, cgroup2 on MOUNT, then the commands."""
    subprocess.run(["mount", "-t", "tmpfs", "none", "/run"], check=True)
    os.makedirs(MOUNT)
    subprocess.run(["mount", "-t", "cgroup2", "none", MOUNT], check=True)
    os.makedirs(spec["out_dir"], exist_ok=True)
    json.dump([record(slug, argv, spec["out_dir"]) for slug, argv in spec["commands"]], sys.stdout)


if __name__ == "__main__":
    _view_main(json.loads(sys.argv[1]))
