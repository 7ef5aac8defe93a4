/**
 * The bearer token EKS accepts: an STS GetCallerIdentity URL, presigned with the cluster name in a
 * signed header, which the cluster's authenticator replays to learn who is calling. Made exactly as
 * `aws eks get-token` (awscli customizations/eks/get_token.py) makes it, so the two agree byte for
 * byte for the same credentials and clock.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When temporary credentials (an assumed role's) stop working; a token they signed stops with them. */
  expiration?: Date;
}

export interface EksTokenOptions {
  cluster: string;
  region: string;
  credentials: AwsCredentials;
  /** The signing time; now unless given. */
  now?: Date;
}

const TOKEN_PREFIX = 'k8s-aws-v1.';
const CLUSTER_ID_HEADER = 'x-k8s-aws-id';
/** The presigned URL's own lifetime; EKS accepts the token for 15 minutes regardless. */
const PRESIGN_SECONDS = 60;
/** awscli's TOKEN_EXPIRATION_MINS: refresh a minute before EKS would stop accepting the token. */
const TOKEN_REUSE_MS = 14 * 60 * 1000;

/**
 * botocore writes the operation parameters first, then its auth parameters in this order, and the
 * signature last. The signature covers the sorted query, so only the token's bytes depend on it.
 */
const QUERY_ORDER = [
  'Action',
  'Version',
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Security-Token',
  'X-Amz-Signature',
] as const;

/** botocore's default (sts_regional_endpoints = regional): the region's own STS endpoint. */
function stsHost(region: string): string {
  return `sts.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

/** RFC 3986 unreserved characters stay, everything else is %XX, as botocore's percent_encode does. */
function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export async function eksToken({
  cluster,
  region,
  credentials,
  now = new Date(),
}: EksTokenOptions): Promise<string> {
  const hostname = stsHost(region);
  const signer = new SignatureV4({
    service: 'sts',
    region,
    sha256: Sha256,
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
    },
  });
  const presigned = await signer.presign(
    {
      // Stryker disable next-line StringLiteral: HttpRequest signs an empty method as GET
      method: 'GET',
      // Stryker disable next-line StringLiteral: the protocol is not signed; the URL below names https
      protocol: 'https:',
      hostname,
      // Stryker disable next-line StringLiteral: HttpRequest signs an empty path as /
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host: hostname, [CLUSTER_ID_HEADER]: cluster },
    },
    { expiresIn: PRESIGN_SECONDS, signingDate: now },
  );
  const query = QUERY_ORDER.flatMap((name) => {
    // Stryker disable next-line OptionalChaining: a presigned request always has a query
    const value = presigned.query?.[name];
    return typeof value === 'string' ? [`${name}=${percentEncode(value)}`] : [];
  }).join('&');
  const url = `https://${hostname}/?${query}`;
  // Stryker disable next-line StringLiteral: Buffer.from reads a string as UTF-8 by default
  return TOKEN_PREFIX + Buffer.from(url, 'utf8').toString('base64url');
}

export interface EksTokenProviderOptions {
  cluster: string;
  region: string;
  /** Asked again for every fresh token, so rotating credentials are picked up. */
  credentials: () => Promise<AwsCredentials>;
  now?: () => Date;
}

/**
 * A token per 14 minutes: callers ask per request, and signing on every request would be wasted
 * work. Concurrent callers share one signing; a failure is not kept, so the next call tries again.
 */
export function eksTokenProvider({
  cluster,
  region,
  credentials,
  now = () => new Date(),
}: EksTokenProviderOptions): () => Promise<string> {
  let cached: { token: Promise<string>; madeAt: number; goodUntil: number } | undefined;
  return () => {
    const at = now();
    if (cached) {
      const age = at.getTime() - cached.madeAt;
      // A clock that went backwards (negative age) also gets a fresh token.
      if (age >= 0 && age < TOKEN_REUSE_MS && at.getTime() < cached.goodUntil) return cached.token;
    }
    // Stryker disable next-line StringLiteral: a placeholder, replaced by the signing below before anyone reads it
    const entry = { token: Promise.resolve(''), madeAt: at.getTime(), goodUntil: Number.POSITIVE_INFINITY };
    const token = credentials().then((resolved) => {
      // A token is only as good as the credentials that signed it: renew a minute before they end.
      if (resolved.expiration) entry.goodUntil = resolved.expiration.getTime() - 60_000;
      return eksToken({ cluster, region, credentials: resolved, now: at });
    });
    entry.token = token;
    cached = entry;
    token.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return token;
  };
}
