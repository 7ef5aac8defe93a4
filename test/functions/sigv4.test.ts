import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { signedHeaders } from '../../functions/sigv4.ts';

const keys = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

/** The same POST signed by the SDK's signer: what AWS checks a signature against. */
async function sdkSigned(post: Parameters<typeof signedHeaders>[0]) {
  const signer = new SignatureV4({
    service: post.service,
    region: post.region,
    sha256: Sha256,
    credentials: post.keys,
  });
  const [hostname, port] = post.host.split(':');
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'https:',
      hostname: hostname as string,
      ...(port ? { port: Number(port) } : {}),
      path: post.path,
      query: {},
      headers: { ...post.headers, host: post.host },
      body: post.body,
    },
    { signingDate: post.now },
  );
  return signed.headers;
}

describe('signedHeaders (Signature Version 4, by node:crypto)', () => {
  const post = {
    service: 'secretsmanager',
    region: 'eu-west-1',
    keys,
    host: 'secretsmanager.eu-west-1.amazonaws.com',
    path: '/',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'secretsmanager.GetSecretValue',
    },
    body: JSON.stringify({
      SecretId: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder-AbCdEf',
    }),
    now: new Date('2026-11-28T22:05:09.123Z'),
  };

  it.each([
    ['long-term keys', post],
    [
      'a session token (Lambda’s role credentials)',
      { ...post, keys: { ...keys, sessionToken: 'IQoJb3JpZ2luX2VjE//token+/=' } },
    ],
    ['a port and another service', { ...post, service: 'sqs', host: '127.0.0.1:4566', region: 'us-east-1' }],
  ])('signs as the SDK signs, with %s', async (_, given) => {
    const mine = signedHeaders(given);
    const sdk = await sdkSigned({
      ...given,
      headers: { ...given.headers, 'x-amz-content-sha256': mine['x-amz-content-sha256'] as string },
    });
    expect(mine.authorization).toBe(sdk.authorization);
    expect(mine['x-amz-date']).toBe('20261128T220509Z');
    expect(mine['x-amz-security-token']).toBe(sdk['x-amz-security-token']);
  });

  it('a changed body changes the signature', () => {
    const other = signedHeaders({ ...post, body: '{"SecretId":"other"}' });
    expect(other.authorization).not.toBe(signedHeaders(post).authorization);
  });
});
