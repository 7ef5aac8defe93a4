/**
 * JSON as Go's `json.MarshalIndent(v, "", "  ")` prints it (Cilium's `-o json`): two-space indent and
 * HTML-sensitive characters escaped as \u003c, \u003e, \u0026. Callers build objects with keys in
 * the Go struct's field order, since that is the order Go writes them.
 */
export function goJsonIndent(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
