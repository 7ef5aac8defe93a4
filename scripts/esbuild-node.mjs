/** What the CLI build and the library build share: ESM for Node 20, split into chunks, maps beside. */
export const ESM_FOR_NODE = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
};
