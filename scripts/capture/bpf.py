"""bpf(2) through ctypes: just enough to load `r0 = 1; exit` programs and attach them to cgroups.

No clang or libbpf: the attrs are packed by hand from include/uapi/linux/bpf.h (x86_64 and arm64).
"""

import ctypes
import os
import platform
import struct

SYS_BPF = {"x86_64": 321, "aarch64": 280}[platform.machine()]

# enum bpf_cmd
PROG_LOAD, OBJ_PIN, PROG_ATTACH, BTF_LOAD, LINK_CREATE = 5, 6, 8, 18, 28
# enum bpf_prog_type
PROG_TYPE = {"skb": 8, "sock": 9, "device": 15, "sock_addr": 18}
# enum bpf_attach_type, with the program type each one takes
ATTACH = {
    "inet_ingress": (0, "skb"),
    "inet_egress": (1, "skb"),
    "device": (6, "device"),
    "connect4": (10, "sock_addr"),
    "connect6": (11, "sock_addr"),
    "post_bind4": (12, "sock"),
    "post_bind6": (13, "sock"),
    "sendmsg4": (14, "sock_addr"),
    "sendmsg6": (15, "sock_addr"),
    "recvmsg4": (19, "sock_addr"),
    "recvmsg6": (20, "sock_addr"),
    "getpeername4": (29, "sock_addr"),
    "getpeername6": (30, "sock_addr"),
}
BPF_F_ALLOW_OVERRIDE, BPF_F_ALLOW_MULTI = 1, 2
# BPF_PROG_ATTACH flags by the name bpftool prints for them (`none` prints as an empty column).
ATTACH_FLAGS = {"none": 0, "override": BPF_F_ALLOW_OVERRIDE, "multi": BPF_F_ALLOW_MULTI}
# BPF_OBJ_NAME_LEN is 16 with the NUL: the kernel keeps at most 15 characters of a name.
OBJ_NAME_MAX = 15

# r0 = 1 (BPF_ALU64 | BPF_MOV | BPF_K), exit (BPF_JMP | BPF_EXIT): allow everything.
ALLOW_ALL = struct.pack("<BBhi", 0xB7, 0x00, 0, 1) + struct.pack("<BBhi", 0x95, 0, 0, 0)

_libc = ctypes.CDLL(None, use_errno=True)


def _bpf(cmd: int, attr: bytes) -> int:
    buf = ctypes.create_string_buffer(attr, 128)
    fd = _libc.syscall(SYS_BPF, cmd, buf, 128)
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"bpf({cmd}): {os.strerror(err)}")
    return fd


def _btf_for(name: str) -> bytes:
    """A BTF blob with `int NAME(void)`: what clang -g emits, so bpftool can print the full name."""
    strings = b"\0int\0" + name.encode() + b"\0"
    int_type = struct.pack("<III", 1, 1 << 24, 4) + struct.pack("<I", (1 << 24) | 32)  # id 1: int
    proto = struct.pack("<III", 0, 13 << 24, 1)  # id 2: FUNC_PROTO returning int, no params
    func = struct.pack("<III", 5, (12 << 24) | 1, 2)  # id 3: global FUNC `name` of type 2
    types = int_type + proto + func
    header = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(strings))
    return header + types + strings


def load(attach: str, name: str, btf_name: bool) -> int:
    """Loads an allow-all program for `attach`; `name` is cut to what the kernel keeps.

    With btf_name, the program carries BTF func info naming it in full, as Cilium's do.
    """
    attach_type, prog_type = ATTACH[attach]
    insns = ctypes.create_string_buffer(ALLOW_ALL, len(ALLOW_ALL))
    license_ = ctypes.create_string_buffer(b"GPL")
    keep = [insns, license_]
    btf_fd, func_info = 0, 0
    if btf_name:
        blob = _btf_for(name)
        blob_buf = ctypes.create_string_buffer(blob, len(blob))
        btf_fd = _bpf(BTF_LOAD, struct.pack("<QQIII", ctypes.addressof(blob_buf), 0, len(blob), 0, 0))
        info = ctypes.create_string_buffer(struct.pack("<II", 0, 3), 8)  # insn 0 is FUNC id 3
        keep += [blob_buf, info]
        func_info = ctypes.addressof(info)
    attr = struct.pack(
        "<IIQQIIQII16sIIIIQIIQII",
        PROG_TYPE[prog_type],
        len(ALLOW_ALL) // 8,
        ctypes.addressof(insns),
        ctypes.addressof(license_),
        0, 0, 0, 0, 0,
        name[:OBJ_NAME_MAX].encode(),
        0,
        attach_type,
        btf_fd,
        8 if btf_name else 0,
        func_info,
        1 if btf_name else 0,
        0, 0, 0, 0,
    )
    try:
        return _bpf(PROG_LOAD, attr)
    finally:
        if btf_fd:
            os.close(btf_fd)  # the program holds its own reference to the BTF
        del keep


def link(prog_fd: int, cgroup_dir: str, attach: str) -> int:
    """BPF_LINK_CREATE, as cilium/ebpf attaches cgroup programs on kernels that have links."""
    cg = os.open(cgroup_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return _bpf(LINK_CREATE, struct.pack("<IIII", prog_fd, cg, ATTACH[attach][0], 0))
    finally:
        os.close(cg)


def attach_multi(prog_fd: int, cgroup_dir: str, attach: str) -> None:
    """BPF_PROG_ATTACH with BPF_F_ALLOW_MULTI, as runc attaches its device filter."""
    prog_attach(prog_fd, cgroup_dir, attach, "multi")


def prog_attach(prog_fd: int, cgroup_dir: str, attach: str, flags: str) -> None:
    """BPF_PROG_ATTACH (no link: the attachment lives until detached or the cgroup goes), as Cilium
    attached its hooks before it used links, with flags none, override or multi."""
    cg = os.open(cgroup_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _bpf(PROG_ATTACH, struct.pack("<IIII", cg, prog_fd, ATTACH[attach][0], ATTACH_FLAGS[flags]))
    finally:
        os.close(cg)


def pin(fd: int, path: str) -> None:
    """BPF_OBJ_PIN: the pinned object outlives this process until the pin is removed."""
    path_buf = ctypes.create_string_buffer(path.encode())
    _bpf(OBJ_PIN, struct.pack("<QII", ctypes.addressof(path_buf), fd, 0))
