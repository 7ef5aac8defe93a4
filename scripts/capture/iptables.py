"""The iptables situations: kubelet's and Cilium's chains restored into a throwaway network
namespace with one backend, the host-mark rule present or missing, then each save/list form."""

import os

from record import record
from scratch import Scratch, run

RULES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "iptables")
HOST_MARK_COMMENT = "cilium: host->any mark as from host"
OTHER = {"nft": "legacy", "legacy": "nft"}


def _rules(name: str, host_mark: bool) -> bytes:
    with open(os.path.join(RULES_DIR, name)) as f:
        lines = [line for line in f if not line.startswith("#")]
    if not host_mark:
        lines = [line for line in lines if HOST_MARK_COMMENT not in line]
    return "".join(lines).encode()


def commands(backend: str) -> list:
    cmds = [
        (f"iptables-{backend}-save", [f"iptables-{backend}-save"]),
        (f"iptables-{backend}-save-t-filter", [f"iptables-{backend}-save", "-t", "filter"]),
        (f"iptables-{backend}-S", [f"iptables-{backend}", "-S"]),
        (f"iptables-{backend}-t-filter-S-CILIUM_OUTPUT", [f"iptables-{backend}", "-t", "filter", "-S", "CILIUM_OUTPUT"]),
        (f"iptables-{OTHER[backend]}-save", [f"iptables-{OTHER[backend]}-save"]),
    ]
    if backend == "nft":  # Debian's `iptables-save` is the nft one through update-alternatives
        cmds.append(("iptables-save", ["iptables-save"]))
    return cmds


def capture(scratch: Scratch, backend: str, host_mark: bool, out_dir: str) -> list[dict]:
    netns = scratch.add_netns()
    for name in ("kubelet.rules", "cilium.rules"):
        run(["ip", "netns", "exec", netns, f"iptables-{backend}-restore", "--noflush"], input=_rules(name, host_mark))
    os.makedirs(out_dir, exist_ok=True)
    return [record(slug, argv, out_dir, ["ip", "netns", "exec", netns]) for slug, argv in commands(backend)]
