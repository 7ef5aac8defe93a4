import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_CILIUM_NAMESPACE, KubeCiliumFacade } from './cilium.ts';
import { clusterConnection } from './connection.ts';
import { httpSender } from './http.ts';
import { HttpKubeFacade } from './kube.ts';
import type { ClusterAccess } from './types.ts';

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 3;

export interface ClusterAccessOptions {
  /** The cluster's name in messages and fingerprints. */
  name: string;
  ciliumNamespace?: string;
  /** A bearer token source that overrides the kubeconfig's credentials (EKS tokens refresh). */
  token?: () => Promise<string>;
  /** Per API request (default 10 s). */
  requestTimeoutMs?: number;
  /** Retries for throttled and unavailable answers (default 3). */
  retries?: number;
}

/** Both facades for the cluster a KubeConfig's current context points at. */
export function clusterAccess(kc: KubeConfig, options: ClusterAccessOptions): ClusterAccess {
  const connection = clusterConnection(kc, options.token);
  const kube = new HttpKubeFacade({
    clusterName: options.name,
    kc,
    send: httpSender(kc, { timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, connection }),
    connection,
    retries: options.retries ?? DEFAULT_RETRIES,
  });
  return {
    name: options.name,
    kube,
    cilium: new KubeCiliumFacade(kube, options.ciliumNamespace ?? DEFAULT_CILIUM_NAMESPACE),
  };
}
