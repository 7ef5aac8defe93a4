import type { AttachTypeSpelling } from '../../../agent-state.ts';

/**
 * The cgroup attach types the simulator attaches, in `enum bpf_attach_type` order (bpftool queries
 * them in that order, so that is the order programs print in), with both spellings: bpftool's old
 * attach_type_name table and libbpf_bpf_attach_type_str() that current bpftool prints.
 */
const ATTACH_TYPES = {
  inet_ingress: { value: 0, legacy: 'ingress', libbpf: 'cgroup_inet_ingress' },
  inet_egress: { value: 1, legacy: 'egress', libbpf: 'cgroup_inet_egress' },
  device: { value: 6, legacy: 'device', libbpf: 'cgroup_device' },
  connect4: { value: 10, legacy: 'connect4', libbpf: 'cgroup_inet4_connect' },
  connect6: { value: 11, legacy: 'connect6', libbpf: 'cgroup_inet6_connect' },
  post_bind4: { value: 12, legacy: 'post_bind4', libbpf: 'cgroup_inet4_post_bind' },
  post_bind6: { value: 13, legacy: 'post_bind6', libbpf: 'cgroup_inet6_post_bind' },
  sendmsg4: { value: 14, legacy: 'sendmsg4', libbpf: 'cgroup_udp4_sendmsg' },
  sendmsg6: { value: 15, legacy: 'sendmsg6', libbpf: 'cgroup_udp6_sendmsg' },
  recvmsg4: { value: 19, legacy: 'recvmsg4', libbpf: 'cgroup_udp4_recvmsg' },
  recvmsg6: { value: 20, legacy: 'recvmsg6', libbpf: 'cgroup_udp6_recvmsg' },
  getpeername4: { value: 29, legacy: 'getpeername4', libbpf: 'cgroup_inet4_getpeername' },
  getpeername6: { value: 30, legacy: 'getpeername6', libbpf: 'cgroup_inet6_getpeername' },
} as const;

export type AttachType = keyof typeof ATTACH_TYPES;

export function attachTypeName(type: AttachType, spelling: AttachTypeSpelling): string {
  return ATTACH_TYPES[type][spelling];
}

export function attachTypeOrder(type: AttachType): number {
  return ATTACH_TYPES[type].value;
}

/** Cilium's socket-LB hooks, each with its program name (cil_sock4_connect...). */
export const SOCKET_LB_HOOKS: readonly { type: AttachType; name: string }[] = [
  { type: 'connect4', name: 'cil_sock4_connect' },
  { type: 'connect6', name: 'cil_sock6_connect' },
  { type: 'post_bind4', name: 'cil_sock4_post_bind' },
  { type: 'post_bind6', name: 'cil_sock6_post_bind' },
  { type: 'sendmsg4', name: 'cil_sock4_sendmsg' },
  { type: 'sendmsg6', name: 'cil_sock6_sendmsg' },
  { type: 'recvmsg4', name: 'cil_sock4_recvmsg' },
  { type: 'recvmsg6', name: 'cil_sock6_recvmsg' },
  { type: 'getpeername4', name: 'cil_sock4_getpeername' },
  { type: 'getpeername6', name: 'cil_sock6_getpeername' },
];

/** BPF_OBJ_NAME_LEN is 16: the kernel keeps 15 characters and a NUL. */
export const BPF_OBJ_NAME_MAX = 15;
