/** The kubeconfig that points kubectl and client-node at the simulated API server. */
import { chmodSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** https://host:port of the API server. */
  server: string;
  /** The CA that signed the server's certificate. */
  caPem: string;
  /** Bearer token for the user. */
  token: string;
  /** Context name; `sim` unless given. */
  context?: string;
  /** Cluster entry name; `sim` unless given. */
  cluster?: string;
  /** User entry name; `sim` unless given. */
  user?: string;
  /** The context's default namespace. */
  namespace?: string;
}

export function kubeconfigYaml(options: KubeconfigOptions): string {
  const context = options.context ?? 'sim';
  const cluster = options.cluster ?? 'sim';
  const user = options.user ?? 'sim';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: cluster,
        cluster: {
          server: options.server,
          'certificate-authority-data': Buffer.from(options.caPem).toString('base64'),
        },
      },
    ],
    users: [{ name: user, user: { token: options.token } }],
    contexts: [
      {
        name: context,
        context: { cluster, user, ...(options.namespace ? { namespace: options.namespace } : {}) },
      },
    ],
    'current-context': context,
    preferences: {},
  });
}

/** Writes the kubeconfig readable by its owner only, since it holds a bearer token. */
export function writeKubeconfig(path: string, options: KubeconfigOptions): void {
  writeFileSync(path, kubeconfigYaml(options), { mode: 0o600 });
  // The mode above applies only when the file is created; an existing file keeps its own.
  chmodSync(path, 0o600);
}
