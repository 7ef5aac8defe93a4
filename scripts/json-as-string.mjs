/**
 * tr46's mapping table (260 KB of JSON, under node-fetch's URL parsing, which client-node bundles)
 * becomes a JavaScript array literal when bundled: V8 scans it as code at every start, about
 * 15 ms of `responder run` before its first request, although only a proxied or fetch-using
 * kubeconfig ever reads it. As a string handed to JSON.parse when first required, its scan costs
 * next to nothing (V8's own advice for large literals).
 */
export const jsonAsString = {
  name: 'json-as-string',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/node_modules\/tr46\/lib\/mappingTable\.json$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};
