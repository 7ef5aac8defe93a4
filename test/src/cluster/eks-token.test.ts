import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type AwsCredentials, eksToken, eksTokenProvider } from '../../../src/cluster/eks-token.ts';

// AWS's documented example key pair; the fixtures were signed with it (scripts/eks-token-fixture.sh).
const CREDENTIALS: AwsCredentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const SESSION_TOKEN = 'IQoJb3JpZ2luX2VjEXAMPLE//////////wEaCXVzLWVhc3QtMSJHMEUCIQ+abc/def==';
const CLOCK = new Date('2024-05-01T12:00:00Z');
const MINUTE = 60_000;

function fixtureToken(name: string): string {
  const path = new URL(`../../fixtures/eks-token/${name}`, import.meta.url);
  const credential = JSON.parse(readFileSync(path, 'utf8')) as { status: { token: string } };
  return credential.status.token;
}

function presignedUrl(token: string): URL {
  expect(token.startsWith('k8s-aws-v1.')).toBe(true);
  return new URL(Buffer.from(token.slice('k8s-aws-v1.'.length), 'base64url').toString('utf8'));
}

describe('eksToken', () => {
  it('equals the token aws eks get-token made for the same credentials and clock', async () => {
    const token = await eksToken({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: CREDENTIALS,
      now: CLOCK,
    });
    expect(token).toBe(fixtureToken('aws-eks-get-token.json'));
  });

  it('equals awscli with a session token too', async () => {
    const token = await eksToken({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: { ...CREDENTIALS, sessionToken: SESSION_TOKEN },
      now: CLOCK,
    });
    expect(token).toBe(fixtureToken('aws-eks-get-token-session.json'));
    expect(presignedUrl(token).searchParams.get('X-Amz-Security-Token')).toBe(SESSION_TOKEN);
  });

  it('equals awscli in the China partition', async () => {
    const token = await eksToken({
      cluster: 'prod-eu',
      region: 'cn-north-1',
      credentials: CREDENTIALS,
      now: CLOCK,
    });
    expect(token).toBe(fixtureToken('aws-eks-get-token-cn.json'));
  });

  it('is an unpadded base64url GetCallerIdentity URL presigned for 60 s with the cluster header', async () => {
    const token = await eksToken({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: CREDENTIALS,
      now: CLOCK,
    });
    expect(token).toMatch(/^k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    const url = presignedUrl(token);
    expect(url.origin).toBe('https://sts.eu-west-1.amazonaws.com');
    expect(url.searchParams.get('Action')).toBe('GetCallerIdentity');
    expect(url.searchParams.get('Version')).toBe('2011-06-15');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20240501T120000Z');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['host', 'x-k8s-aws-id']);
    expect(url.searchParams.get('X-Amz-Security-Token')).toBeNull();
  });

  it("percent-encodes the query as botocore does, !'()* included", async () => {
    const token = await eksToken({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: { ...CREDENTIALS, sessionToken: "a!b'c(d)e*f~g-h_i.j k/l+m=" },
      now: CLOCK,
    });
    const raw = Buffer.from(token.slice('k8s-aws-v1.'.length), 'base64url').toString('utf8');
    // urllib.parse.quote(value, safe='-_.~'): only RFC 3986 unreserved characters stay as they are.
    expect(raw).toContain(
      '&X-Amz-Security-Token=a%21b%27c%28d%29e%2Af~g-h_i.j%20k%2Fl%2Bm%3D&X-Amz-Signature=',
    );
  });

  it('signs the cluster name: another cluster gets another signature', async () => {
    const sign = (cluster: string) =>
      eksToken({ cluster, region: 'eu-west-1', credentials: CREDENTIALS, now: CLOCK });
    const [prod, staging] = await Promise.all([sign('prod-eu'), sign('staging-eu')]);
    expect(presignedUrl(prod).searchParams.get('X-Amz-Signature')).not.toBe(
      presignedUrl(staging).searchParams.get('X-Amz-Signature'),
    );
  });
});

describe('eksTokenProvider', () => {
  function provider() {
    let clock = CLOCK;
    let credentialCalls = 0;
    const token = eksTokenProvider({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: async () => {
        credentialCalls++;
        return CREDENTIALS;
      },
      now: () => clock,
    });
    return {
      token,
      advance: (ms: number) => {
        clock = new Date(clock.getTime() + ms);
      },
      credentialCalls: () => credentialCalls,
    };
  }

  it('reuses a token for 14 minutes, then signs a fresh one', async () => {
    const { token, advance, credentialCalls } = provider();
    const first = await token();
    expect(first).toBe(fixtureToken('aws-eks-get-token.json'));

    advance(14 * MINUTE - 1);
    expect(await token()).toBe(first);
    expect(credentialCalls()).toBe(1);

    advance(1);
    const second = await token();
    expect(second).not.toBe(first);
    expect(presignedUrl(second).searchParams.get('X-Amz-Date')).toBe('20240501T121400Z');
    expect(credentialCalls()).toBe(2);
  });

  it('signs a new token before the credentials that signed the last one expire', async () => {
    let clock = CLOCK;
    const issued: AwsCredentials[] = [];
    const token = eksTokenProvider({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      // Temporary credentials (an assumed role's) that end 3 minutes after each is handed out.
      credentials: async () => {
        const n = issued.length + 1;
        const credentials = {
          accessKeyId: `ASIAEXAMPLE0000000${n}`,
          secretAccessKey: CREDENTIALS.secretAccessKey,
          sessionToken: `${SESSION_TOKEN}${n}`,
          expiration: new Date(clock.getTime() + 3 * MINUTE),
        };
        issued.push(credentials);
        return credentials;
      },
      now: () => clock,
    });
    const signer = (value: string) => presignedUrl(value).searchParams.get('X-Amz-Credential');

    const first = await token();
    clock = new Date(CLOCK.getTime() + 2 * MINUTE - 1);
    expect(await token()).toBe(first);

    clock = new Date(CLOCK.getTime() + 2.5 * MINUTE);
    const second = await token();
    expect(second).not.toBe(first);
    expect(issued).toHaveLength(2);
    expect(signer(second)).toMatch(/^ASIAEXAMPLE00000002\//);
    expect(presignedUrl(second).searchParams.get('X-Amz-Date')).toBe('20240501T120230Z');
  });

  it('shares one signing between concurrent callers', async () => {
    const { token, credentialCalls } = provider();
    const tokens = await Promise.all([token(), token(), token()]);
    expect(new Set(tokens).size).toBe(1);
    expect(credentialCalls()).toBe(1);
  });

  it('signs afresh when the clock goes backwards', async () => {
    const { token, advance, credentialCalls } = provider();
    await token();
    advance(-MINUTE);
    await token();
    expect(credentialCalls()).toBe(2);
  });

  it('hands out no token from the minute before its credentials expire', async () => {
    let clock = CLOCK;
    let calls = 0;
    const token = eksTokenProvider({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: async () => {
        calls++;
        return { ...CREDENTIALS, expiration: new Date(CLOCK.getTime() + 3 * MINUTE) };
      },
      now: () => clock,
    });
    await token();
    clock = new Date(CLOCK.getTime() + 2 * MINUTE);
    await token();
    expect(calls).toBe(2);
  });

  it('keeps a newer token when an older signing fails after it', async () => {
    let clock = CLOCK;
    const pending: Array<(credentials: AwsCredentials | Error) => void> = [];
    let calls = 0;
    const token = eksTokenProvider({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: () => {
        calls++;
        return new Promise((resolve, reject) =>
          pending.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))),
        );
      },
      now: () => clock,
    });
    const failing = token();
    // The clock steps back while the first signing waits, so the next call signs afresh.
    clock = new Date(CLOCK.getTime() - MINUTE);
    const fresh = token();
    pending[1]?.(CREDENTIALS);
    const good = await fresh;
    pending[0]?.(new Error('expired credentials'));
    await expect(failing).rejects.toThrow('expired credentials');
    expect(await token()).toBe(good);
    expect(calls).toBe(2);
  });

  it('signs at the current time when no clock is given', async () => {
    const token = eksTokenProvider({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: async () => CREDENTIALS,
    });
    const before = Date.now();
    const date = presignedUrl(await token()).searchParams.get('X-Amz-Date') ?? '';
    const signedAt = Date.parse(
      date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    expect(signedAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(signedAt).toBeLessThanOrEqual(Date.now());
  });

  it('does not keep a failure', async () => {
    let fail = true;
    const token = eksTokenProvider({
      cluster: 'prod-eu',
      region: 'eu-west-1',
      credentials: async () => {
        if (fail) throw new Error('no credentials');
        return CREDENTIALS;
      },
      now: () => CLOCK,
    });
    await expect(token()).rejects.toThrow('no credentials');
    fail = false;
    expect(await token()).toBe(fixtureToken('aws-eks-get-token.json'));
  });
});
