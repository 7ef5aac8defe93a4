/**
 * cilium-config `kube-proxy-replacement`: `true` (Cilium 1.14+) or `strict` (before) mean Cilium
 * programs every service itself; `false`, `disabled`, `partial` and `probe` leave work to kube-proxy.
 */
export function replacesKubeProxy(value: string | undefined): boolean {
  return value === 'true' || value === 'strict';
}
