/**
 * @kubernetes/client-node's KubeConfig imports, at its top, what only some kubeconfigs use: proxy
 * agents (socks, with ip-address; hpagent), node-fetch (with whatwg-url and tr46's 260 KB table)
 * for fetch options, openid-client for OIDC users, jsonpath-plus for the GCP/Azure auth providers.
 * Evaluating them was about a fifth of the code `responder run` ran before its first request.
 * Bundled through this plugin, client-node sees stand-ins that load the real export on first use:
 * the same class or function, constructed or called with the same arguments, only later.
 * The names are the ones those modules import: `npm run build` fails when one is missing.
 */
const LAZY = {
  'node-fetch': { sync: ['Headers'] },
  'socks-proxy-agent': { sync: ['SocksProxyAgent'] },
  hpagent: { sync: ['HttpProxyAgent', 'HttpsProxyAgent'] },
  'jsonpath-plus': { sync: ['JSONPath'] },
  // ESM only, and only async calls: a dynamic import, a chunk of its own.
  'openid-client': { async: ['discovery', 'refreshTokenGrant'] },
};

/** KubeConfig's modules (its other modules, not bundled into the CLI, are left alone). */
const IMPORTERS = /\/@kubernetes\/client-node\/dist\/(config|oidc_auth|azure_auth|gcp_auth)\.js$/;

/** A stand-in module: each name forwards to the real export, loaded once, at first use. */
function standIn(pkg, { sync = [], async = [] }) {
  const lines = [`let real;`];
  if (sync.length > 0) {
    lines.push(`const load = () => (real ??= require(${JSON.stringify(pkg)}));`);
    for (const name of sync)
      lines.push(
        `export function ${name}(...args) { const value = load().${name}; return new.target ? new value(...args) : value.apply(this, args); }`,
      );
  } else {
    lines.push(`const load = () => (real ??= import(${JSON.stringify(pkg)}));`);
    for (const name of async)
      lines.push(`export async function ${name}(...args) { return (await load()).${name}(...args); }`);
  }
  return lines.join('\n');
}

export const lazyClientNodeDeps = {
  name: 'lazy-client-node-deps',
  setup(esbuild) {
    const filter = new RegExp(`^(${Object.keys(LAZY).join('|')})$`);
    esbuild.onResolve({ filter }, (args) => {
      if (!IMPORTERS.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'lazy-client-node-deps', pluginData: args.resolveDir };
    });
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-client-node-deps' }, (args) => ({
      contents: standIn(args.path, LAZY[args.path]),
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};
