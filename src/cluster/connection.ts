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
 * Connection options for one cluster. The kubeconfig is asked on every call, so credentials that
 * refresh (exec plugins, EKS tokens) stay fresh; the TLS material it names becomes one secure
 * context and one keep-alive agent, rebuilt only when that material changes. Every exec is a new
 * connection: through the shared agent it resumes a cached TLS session instead of parsing the CA
 * and doing a full handshake and certificate check again, which at 5,000 agents is most of the
 * fan-out's time; during a fan-out the next connections open while earlier execs wait (see
 * PreconnectAgent). A proxy keeps the kubeconfig's own agent; plain http the global one.
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
  return async () => {
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
    if (token) options.headers = { ...options.headers, Authorization: `Bearer ${await token()}` };
    return options;
  };
}
