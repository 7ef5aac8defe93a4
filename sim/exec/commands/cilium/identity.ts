/** Cilium's reserved identities, named as NumericIdentity.String() names them (pkg/identity). */
const RESERVED: Record<number, string> = {
  0: 'unknown',
  1: 'host',
  2: 'world',
  3: 'unmanaged',
  4: 'health',
  5: 'init',
  6: 'remote-node',
  7: 'kube-apiserver',
  8: 'ingress',
  9: 'world-ipv4',
  10: 'world-ipv6',
};

/** `world` for 2, `12345` for an allocated identity; numbers only when asked (monitor -n). */
export function identityName(id: number, numeric = false): string {
  return numeric ? String(id) : (RESERVED[id] ?? String(id));
}
