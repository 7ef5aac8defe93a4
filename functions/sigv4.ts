import { createHash, createHmac } from 'node:crypto';

/** The function's credentials, as Lambda puts them in its environment. */
export interface AwsKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

export interface SignedPost {
  service: string;
  region: string;
  keys: AwsKeys;
  /** host[:port], as the Host header carries it. */
  host: string;
  path: string;
  /** Lower-case names; all of them are signed. */
  headers: Record<string, string>;
  body: string;
  now: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** RFC 3986 escaping of each path segment, as SigV4's canonical URI wants it (the JSON APIs post to /). */
const canonicalPath = (path: string) =>
  path
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/') || '/';

/**
 * The headers of a POST signed with Signature Version 4 (AWS's "Create a signed AWS API request"),
 * with node's own HMAC: the cold start loads no SDK to sign one request. Checked byte for byte
 * against the SDK's signer (test/functions/sigv4.test.ts).
 */
export function signedHeaders(post: SignedPost): Record<string, string> {
  const amzDate = post.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(post.body);
  const headers: Record<string, string> = {
    ...post.headers,
    host: post.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': payloadHash,
    ...(post.keys.sessionToken ? { 'x-amz-security-token': post.keys.sessionToken } : {}),
  };
  const names = Object.keys(headers).sort();
  const signedNames = names.join(';');
  const canonical = [
    'POST',
    canonicalPath(post.path),
    '',
    ...names.map((name) => `${name}:${String(headers[name]).trim().replace(/\s+/g, ' ')}`),
    '',
    signedNames,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${post.region}/${post.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${post.keys.secretAccessKey}`, day), post.region), post.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return {
    ...headers,
    'content-length': String(Buffer.byteLength(post.body)),
    authorization: `AWS4-HMAC-SHA256 Credential=${post.keys.accessKeyId}/${scope}, SignedHeaders=${signedNames}, Signature=${signature}`,
  };
}
