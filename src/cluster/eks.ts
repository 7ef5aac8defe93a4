/**
 * An EKS cluster as a KubeConfig: DescribeCluster for the endpoint and CA, and a bearer token
 * provider signed with the caller's credentials, or a per-cluster role's when the config names one
 * (like `aws eks update-kubeconfig --role-arn`: the role signs the token, not DescribeCluster).
 */
import {
  AccessDeniedException,
  type Cluster,
  DescribeClusterCommand,
  EKSClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-eks';
import { AssumeRoleCommand, type AssumeRoleCommandOutput, STSClient } from '@aws-sdk/client-sts';
import { KubeConfig } from '@kubernetes/client-node';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { type AwsCredentials, eksTokenProvider } from './eks-token.ts';
import type { ClusterRef } from './types.ts';

export type EksRef = Extract<ClusterRef, { kind: 'eks' }>;

export interface EksOptions {
  eks?: EKSClient;
  sts?: STSClient;
  /** The caller's credentials; the SDK's default chain unless given. */
  credentials?: AwsCredentialIdentityProvider;
  now?: () => Date;
}

export interface EksKubeConfig {
  kubeConfig: KubeConfig;
  /** A bearer token for the cluster, fresh enough for the next request. */
  token: () => Promise<string>;
}

/** Shows up in CloudTrail as the session that assumed the cluster's role. */
const ROLE_SESSION_NAME = 'cilium-responder';
/**
 * A token is accepted for 15 minutes after signing, but only while the credentials that signed it
 * are valid: role credentials are renewed before fewer than 15 minutes remain.
 */
const ROLE_RENEW_BEFORE_MS = 15 * 60 * 1000;
/** AWS calls that hang would hold a run; the SDK's own retries still apply. */
const AWS_REQUEST_HANDLER = { connectionTimeout: 5_000, requestTimeout: 15_000 };
/**
 * An UPDATING cluster (version upgrade, config change) keeps serving its API, and an incident during
 * an upgrade is exactly when the responder is wanted; CREATING, DELETING, FAILED and PENDING do not.
 */
const SERVING_STATUSES: ReadonlySet<string> = new Set(['ACTIVE', 'UPDATING']);
const KUBECONFIG_USER = 'cilium-responder';

export async function eksKubeConfig(ref: EksRef, options: EksOptions = {}): Promise<EksKubeConfig> {
  const clientConfig = {
    region: ref.region,
    requestHandler: AWS_REQUEST_HANDLER,
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  const eks = options.eks ?? new EKSClient(clientConfig);
  const { endpoint, certificateAuthorityData } = await describeCluster(eks, ref);

  const callerCredentials = options.credentials ?? (() => eks.config.credentials());
  const credentials = ref.roleArn
    ? assumedRoleCredentials(options.sts ?? new STSClient(clientConfig), ref.roleArn, ref.name, options.now)
    : callerCredentials;
  const token = eksTokenProvider({ cluster: ref.name, region: ref.region, credentials, now: options.now });
  // Signed now so that a role that cannot be assumed fails the connect, not the first request.
  await token();

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: ref.name, server: endpoint, caData: certificateAuthorityData, skipTLSVerify: false }],
    users: [{ name: KUBECONFIG_USER }],
    contexts: [{ name: ref.name, cluster: ref.name, user: KUBECONFIG_USER }],
    currentContext: ref.name,
  });
  return { kubeConfig, token };
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

/** The role's credentials, assumed on first use and again before they get too close to expiring. */
function assumedRoleCredentials(
  sts: STSClient,
  roleArn: string,
  clusterName: string,
  now: () => Date = () => new Date(),
): () => Promise<AwsCredentials> {
  let current: AssumedRole | undefined;
  return async () => {
    if (!current || current.expiresAt - now().getTime() <= ROLE_RENEW_BEFORE_MS) {
      current = await assumeRole(sts, roleArn, clusterName);
    }
    return current.credentials;
  };
}

interface AssumedRole {
  credentials: AwsCredentials;
  expiresAt: number;
}

async function assumeRole(sts: STSClient, roleArn: string, clusterName: string): Promise<AssumedRole> {
  const forCluster = `role ${roleArn} for EKS cluster "${clusterName}"`;
  let response: AssumeRoleCommandOutput;
  try {
    response = await sts.send(
      new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: ROLE_SESSION_NAME }),
    );
  } catch (error) {
    throw new Error(`could not assume ${forCluster}: ${messageOf(error)}`, { cause: error });
  }
  const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = response.Credentials ?? {};
  if (!AccessKeyId || !SecretAccessKey || !SessionToken || !Expiration) {
    throw new Error(`assuming ${forCluster} returned no credentials`);
  }
  return {
    credentials: { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: SessionToken },
    expiresAt: Expiration.getTime(),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
