import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { doesIdentityRequireRefresh, isIdentityExpired, memoizeIdentityProvider } from '@smithy/core';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { AwsSide } from './side.ts';

/** Shows up in CloudTrail as the session that assumed the cluster's role. */
const ROLE_SESSION_NAME = 'cilium-responder';

/** AWS calls that hang would hold a run; the SDK's own retries still apply. */
export const AWS_REQUEST_HANDLER = { connectionTimeout: 5_000, requestTimeout: 15_000 };

/**
 * The credentials every AWS call made for one cluster uses (DescribeCluster, the token, the EC2
 * reads): the cluster's role when it names one, assumed with the caller's credentials and
 * refreshed by the SDK; otherwise the caller's own (undefined: the SDK's default chain).
 */
export function clusterCredentials(
  side: AwsSide,
  caller?: AwsCredentialIdentityProvider,
): AwsCredentialIdentityProvider | undefined {
  if (!side.roleArn) return caller;
  const assume = fromTemporaryCredentials({
    params: { RoleArn: side.roleArn, RoleSessionName: ROLE_SESSION_NAME },
    clientConfig: { region: side.region },
    ...(caller ? { masterCredentials: caller } : {}),
  });
  // One assumed session for all of the cluster's clients (EKS, the token, EC2), renewed by the
  // SDK's own rule before it expires.
  return memoizeIdentityProvider(assume, isIdentityExpired, doesIdentityRequireRefresh);
}

/** A client configuration for one cluster's AWS side. */
export function clusterClientConfig(side: AwsSide, credentials: AwsCredentialIdentityProvider | undefined) {
  return {
    region: side.region,
    requestHandler: AWS_REQUEST_HANDLER,
    ...(credentials ? { credentials } : {}),
  };
}
