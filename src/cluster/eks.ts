import {
  AccessDeniedException,
  type Cluster,
  DescribeClusterCommand,
  EKSClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-eks';
import { KubeConfig } from '@kubernetes/client-node';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { clusterClientConfig, clusterCredentials } from '../aws/credentials.ts';
import { eksTokenProvider } from './eks-token.ts';
import type { ClusterRef } from './types.ts';

export type EksRef = Extract<ClusterRef, { kind: 'eks' }>;

export interface EksOptions {
  /** The caller's credentials; the SDK's default chain unless given. */
  credentials?: AwsCredentialIdentityProvider;
  now?: () => Date;
}

export interface EksKubeConfig {
  kubeConfig: KubeConfig;
  /** A bearer token for the cluster, fresh enough for the next request. */
  token: () => Promise<string>;
  /** What every other AWS call for this cluster signs with (its role's, or the caller's). */
  credentials: AwsCredentialIdentityProvider | undefined;
}

/**
 * An UPDATING cluster (version upgrade, config change) keeps serving its API, and an incident during
 * an upgrade is exactly when the responder is wanted; CREATING, DELETING, FAILED and PENDING do not.
 */
const SERVING_STATUSES: ReadonlySet<string> = new Set(['ACTIVE', 'UPDATING']);
const KUBECONFIG_USER = 'cilium-responder';

/**
 * An EKS cluster as a KubeConfig: DescribeCluster for the endpoint and CA, and a bearer token
 * provider, both with the cluster's credentials (its role when the config names one, like
 * `aws eks update-kubeconfig --role-arn`).
 */
export async function eksKubeConfig(ref: EksRef, options: EksOptions = {}): Promise<EksKubeConfig> {
  const credentials = clusterCredentials(ref, options.credentials);
  const eks = new EKSClient(clusterClientConfig(ref, credentials));
  const { endpoint, certificateAuthorityData } = await describeCluster(eks, ref);
  const token = eksTokenProvider({
    cluster: ref.name,
    region: ref.region,
    credentials: credentials ?? (() => eks.config.credentials()),
    now: options.now,
  });
  // Signed now so that a role that cannot be assumed fails the connect, not the first request.
  await token();

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: ref.name, server: endpoint, caData: certificateAuthorityData, skipTLSVerify: false }],
    users: [{ name: KUBECONFIG_USER }],
    contexts: [{ name: ref.name, cluster: ref.name, user: KUBECONFIG_USER }],
    currentContext: ref.name,
  });
  return { kubeConfig, token, credentials };
}

async function describeCluster(
  eks: EKSClient,
  ref: EksRef,
): Promise<{ endpoint: string; certificateAuthorityData: string }> {
  const named = `EKS cluster "${ref.name}"`;
  let cluster: Cluster | undefined;
  try {
    ({ cluster } = await eks.send(new DescribeClusterCommand({ name: ref.name })));
  } catch (error) {
    if (error instanceof ResourceNotFoundException) {
      throw new Error(`${named} not found in ${ref.region}`, { cause: error });
    }
    if (error instanceof AccessDeniedException) {
      throw new Error(`not allowed to describe ${named} in ${ref.region}: ${error.message}`, {
        cause: error,
      });
    }
    throw new Error(`could not describe ${named} in ${ref.region}: ${messageOf(error)}`, { cause: error });
  }
  if (!cluster?.status || !SERVING_STATUSES.has(cluster.status)) {
    throw new Error(`${named} in ${ref.region} is ${cluster?.status ?? 'in an unknown state'}, not ACTIVE`);
  }
  const endpoint = cluster.endpoint;
  const certificateAuthorityData = cluster.certificateAuthority?.data;
  if (!endpoint || !certificateAuthorityData) {
    throw new Error(`${named} in ${ref.region} has no API endpoint or certificate authority`);
  }
  return { endpoint, certificateAuthorityData };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
