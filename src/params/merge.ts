type Params = Record<string, unknown>;

const isObject = (value: unknown): value is Params =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runbook params from several places, later ones winning key by key, nested objects merged (so
 * `aws.region` from the command line keeps the config's other `aws` keys).
 */
export function mergeParams(...layers: readonly (Params | undefined)[]): Params {
  const merged: Params = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      const current = merged[key];
      merged[key] = isObject(current) && isObject(value) ? mergeParams(current, value) : value;
    }
  }
  return merged;
}

/** `a.b=c` pairs (the CLI's `--set`) as params: `{ a: { b: 'c' } }`. Values stay text, as Slack sends them. */
export function paramsFromPairs(pairs: readonly string[]): Params {
  return mergeParams(
    ...pairs.map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 1) throw new Error(`"${pair}" is not key=value`);
      const path = pair.slice(0, equals).split('.');
      if (path.some((part) => part === '')) throw new Error(`"${pair}" has an empty key`);
      return path.reduceRight<unknown>((value, key) => ({ [key]: value }), pair.slice(equals + 1)) as Params;
    }),
  );
}
