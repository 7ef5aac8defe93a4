/** Each composite signal's sources, held as long as the composite is (a WeakMap's values are). */
const sourcesOf = new WeakMap<AbortSignal, readonly AbortSignal[]>();

/**
 * `AbortSignal.any(signals)`, keeping its sources alive for as long as the composite is. Node's
 * composite holds its sources weakly, so a source only it refers to (an inline
 * `AbortSignal.timeout`) can be garbage-collected before its timer fires, and the composite then
 * never aborts (nodejs/node#57736; seen here on Node 20).
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  // biome-ignore lint/plugin: the one composite whose sources are held (below)
  const composite = AbortSignal.any([...signals]);
  sourcesOf.set(composite, signals);
  return composite;
}
