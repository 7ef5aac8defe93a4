import type { RequestOptions } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { execPluginError } from './exec-plugin.ts';
import { PreconnectAgent } from './preconnect-agent.ts';

/** TLS, proxy and credentials for one request or exec upgrade to the cluster. */
export type ConnectionOptions = () => Promise<RequestOptions>;

/** What the kubeconfig's TLS material is made of; a secure context is built from these. */
const TLS_MATERIAL = ['ca', 'cert', 'key', 'pfx', 'passphrase'] as const;

type Material = Pick<RequestOptions, (typeof TLS_MATERIAL)[number]>;

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return a === b;
}

const sameMaterial = (a: Material, b: Material) =>
  TLS_MATERIAL.every((field) => sameValue(a[field], b[field]));

/**
 * Whether what the kubeconfig adds to a request can change between calls: a credential plugin or
 * auth provider (tokens that refresh, certificates a plugin returns) or TLS material read from files
 * (rotated on disk). Anything else is fixed once the kubeconfig is loaded.
 */
function refreshes(kc: KubeConfig): boolean {
  const user = kc.getCurrentUser();
  const cluster = kc.getCurrentCluster();
  return Boolean(user?.exec || user?.authProvider || user?.certFile || user?.keyFile || cluster?.caFile);
}

/**
 * Connection options for one cluster. A kubeconfig whose credentials refresh (exec plugins, auth
 * providers, files) is asked on every call, so they stay fresh; any other is applied once, at the
 * first call (client-node builds an https agent and decodes the CA at every application, which at
 * one exec per agent was a tenth of a fan-out's client CPU). EKS tokens come from `token` on every
 * call. The TLS material becomes one secure context and one keep-alive agent, rebuilt only when
 * that material changes. Every exec is a new connection: through the shared agent it resumes a
 * cached TLS session instead of a full handshake and certificate check; during a fan-out the next
 * connections open while earlier execs wait (see PreconnectAgent). A proxy keeps the kubeconfig's
 * own agent; plain http the global one.
 */
export function clusterConnection(kc: KubeConfig, token?: () => Promise<string>): ConnectionOptions {
  let shared: { material: Material; agent: PreconnectAgent } | undefined;
  const agentFor = (material: Material): PreconnectAgent => {
    if (shared && sameMaterial(shared.material, material)) return shared.agent;
    shared?.agent.destroy();
    // As node's global agent, with the cluster's TLS: keep-alive, idle sockets closed after 5 s;
    // spare connections opened ahead of an exec fan-out.
    const agent = new PreconnectAgent({
      keepAlive: true,
      scheduling: 'lifo',
      timeout: 5_000,
      secureContext: createSecureContext(material),
    });
    shared = { material, agent };
    return agent;
  };
  const apply = async (): Promise<RequestOptions> => {
    const options: RequestOptions = {};
    try {
      await kc.applyToHTTPSOptions(options);
    } catch (error) {
      throw execPluginError(kc, error);
    }
    const cluster = kc.getCurrentCluster();
    if (!cluster?.proxyUrl) {
      if (cluster?.server.startsWith('https:')) {
        const material: Material = {};
        for (const field of TLS_MATERIAL) {
          if (options[field] !== undefined) Object.assign(material, { [field]: options[field] });
          delete options[field];
        }
        options.agent = agentFor(material);
      } else {
        options.agent = undefined;
      }
    }
    return options;
  };
  let applied: Promise<RequestOptions> | undefined;
  const kubeconfigOptions = (): Promise<RequestOptions> => {
    if (refreshes(kc)) return apply();
    // A failure is not kept: the next call applies the kubeconfig again.
    applied ??= apply().catch((error: unknown) => {
      applied = undefined;
      throw error;
    });
    return applied;
  };
  return async () => {
    // A copy per call: callers may add to it.
    const options: RequestOptions = { ...(await kubeconfigOptions()) };
    if (token) options.headers = { ...options.headers, Authorization: `Bearer ${await token()}` };
    else if (options.headers) options.headers = { ...options.headers };
    return options;
  };
}
