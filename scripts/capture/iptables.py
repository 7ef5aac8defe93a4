"""The iptables situations: kubelet's and Cilium's chains restored into a throwaway network
namespace with one backend, the host-mark rule present or missing, then each save/list form."""

import os

from record import record
from scratch import Scratch, run

RULES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "iptables")
HOST_MARK_COMMENT = "cilium: host->any mark as from host"
OTHER = {"nft": "legacy", "legacy": "nft"}


# What each iptables situation restores: kubelet's chains, then Cilium's with or without the host-mark rule.
SITUATIONS = {
    "host-mark-present": {"cilium": True, "host_mark": True},
    "host-mark-missing": {"cilium": True, "host_mark": False},
    "no-cilium-chains": {"cilium": False, "host_mark": False},
}


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
    ]
    if backend == "nft":  # Debian's `iptables-save` is the nft one through update-alternatives
        cmds.append(("iptables-save", ["iptables-save"]))
    # The other backend last: `iptables-legacy -S` creates the legacy filter table it lists, and
    # from then on every nft tool in the namespace warns that legacy tables are present.
    return cmds + [
        (f"iptables-{OTHER[backend]}-save", [f"iptables-{OTHER[backend]}-save"]),
        (f"iptables-{OTHER[backend]}-S", [f"iptables-{OTHER[backend]}", "-S"]),
    ]


def capture(scratch: Scratch, backend: str, situation: str, out_dir: str) -> list[dict]:
    spec = SITUATIONS[situation]
    netns = scratch.add_netns()
    for name in ("kubelet.rules", "cilium.rules") if spec["cilium"] else ("kubelet.rules",):
        restore = [f"iptables-{backend}-restore", "--noflush"]
        run(["ip", "netns", "exec", netns, *restore], input=_rules(name, spec["host_mark"]))
    os.makedirs(out_dir, exist_ok=True)
    return [record(slug, argv, out_dir, ["ip", "netns", "exec", netns, *argv]) for slug, argv in commands(backend)]
