/**
 * Cilium's socket-LB hooks, named the way older bpftool prints their attach types. Current bpftool
 * prints libbpf's names instead (`cgroup_inet4_connect`); the runbook reports the short ones.
 */
export const SOCKET_LB_HOOKS = [
  'connect4',
  'connect6',
  'post_bind4',
  'post_bind6',
  'sendmsg4',
  'sendmsg6',
  'recvmsg4',
  'recvmsg6',
  'getpeername4',
  'getpeername6',
] as const;

export type SocketLbHook = (typeof SOCKET_LB_HOOKS)[number];

/** libbpf_bpf_attach_type_str() names, as current bpftool prints them. */
const LIBBPF_NAMES: Readonly<Record<string, SocketLbHook>> = {
  cgroup_inet4_connect: 'connect4',
  cgroup_inet6_connect: 'connect6',
  cgroup_inet4_post_bind: 'post_bind4',
  cgroup_inet6_post_bind: 'post_bind6',
  cgroup_udp4_sendmsg: 'sendmsg4',
  cgroup_udp6_sendmsg: 'sendmsg6',
  cgroup_udp4_recvmsg: 'recvmsg4',
  cgroup_udp6_recvmsg: 'recvmsg6',
  cgroup_inet4_getpeername: 'getpeername4',
  cgroup_inet6_getpeername: 'getpeername6',
};

/**
 * `enum bpf_attach_type` values: a bpftool that has no name for a type the kernel reports prints
 * `type 29` in text and a bare number in JSON.
 */
const ENUM_VALUES: Readonly<Record<number, SocketLbHook>> = {
  10: 'connect4',
  11: 'connect6',
  12: 'post_bind4',
  13: 'post_bind6',
  14: 'sendmsg4',
  15: 'sendmsg6',
  19: 'recvmsg4',
  20: 'recvmsg6',
  29: 'getpeername4',
  30: 'getpeername6',
};

const NUMERIC_TYPE = /^type (\d+)$/;

function isSocketLbHook(name: string): name is SocketLbHook {
  return (SOCKET_LB_HOOKS as readonly string[]).includes(name);
}

/** The socket-LB hook an attach type (as bpftool printed it, in any spelling) stands for, if any. */
export function socketLbHookOf(attachType: string): SocketLbHook | undefined {
  if (isSocketLbHook(attachType)) return attachType;
  const numeric = NUMERIC_TYPE.exec(attachType);
  if (numeric) return ENUM_VALUES[Number(numeric[1])];
  return LIBBPF_NAMES[attachType];
}

/**
 * Cilium's socket programs: `cil_sock4_connect`... (before 1.13 without the `cil_` prefix), which
 * older bpftool cuts to the kernel's 15 characters (`cil_sock4_conne`). Another tool's named
 * connect4 program on the root must not pass for Cilium's.
 */
const CILIUM_SOCKET_PROGRAM = /^(cil_)?sock[46]_/;

/**
 * Whether a program on a socket-LB attach type is Cilium's. An unnamed one is, only where the
 * node's bpftool prints no program names at all (a kernel before names, the Cilium docs' old
 * example): there Cilium's own hooks are unnamed, and reading them as missing would send on-call
 * after a fault the node does not have. Where names are printed, Cilium's carry theirs, so an
 * unnamed program on a socket hook is another tool's and must not make the root look healthy.
 */
export function isCiliumSocketProgram(name: string, namesPrinted: boolean): boolean {
  return name === '' ? !namesPrinted : CILIUM_SOCKET_PROGRAM.test(name);
}
