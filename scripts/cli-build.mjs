// How the `responder` command is built into dist/ (run by `npm ci` and `npm install` through `prepare`,
// and before the tests) as the functions are bundled (cdk/bundling.ts): the packages inlined and
// minified, so a command reads a few files instead of resolving hundreds across node_modules.
// The commands stay split out, so `responder --help` loads only commander, and each command loads
// its own code when it runs.
import { CLI_ENTRIES } from './entries.mjs';
import { ESM_FOR_NODE } from './esbuild-node.mjs';
import { jsonAsString } from './json-as-string.mjs';
import { lazyClientNodeDeps } from './lazy-client-node-deps.mjs';

/**
 * @kubernetes/client-node declares no `sideEffects`, so esbuild keeps all ~740 of its modules
 * (1.5 MB minified) although the CLI uses KubeConfig and little else. Its modules only define
 * classes and constants; saying so lets esbuild drop the generated APIs and models nothing calls,
 * which takes a tenth of a second off every `responder run` before its first request.
 */
const clientNodeWithoutSideEffects = {
  name: 'client-node-without-side-effects',
  setup(esbuild) {
    esbuild.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (resolved.errors.length > 0 || !resolved.path.includes('/@kubernetes/client-node/'))
        return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

export const CLI_BUILD = {
  ...ESM_FOR_NODE,
  entryPoints: CLI_ENTRIES,
  outdir: 'dist',
  minify: true,
  mainFields: ['module', 'main'],
  // dynalite finds its LevelDB binding and its files next to itself, and tsx (which loads a team's
  // TypeScript runbooks) registers its loader from its own files: both stay in node_modules.
  external: ['dynalite', 'tsx'],
  // ESM bundles of CommonJS packages need `require`.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  plugins: [clientNodeWithoutSideEffects, lazyClientNodeDeps, jsonAsString],
};
