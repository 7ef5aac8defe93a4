import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../cli/serve/local-server.ts';
import { createHttpApp } from '../../functions/http-app.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { memoryStore } from '../../src/store/index.ts';
import { appOf, collector, recordingQueue, testConfig, unmanagedAlert } from './harness.ts';

/** What AWS Secrets Manager's GetRandomPassword may put in a secret besides letters and digits. */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** A token as a generator makes one: letters, digits and one punctuation character inside. */
const tokenWith = (char: string) => `Zq7${char}w9Rk${char}`;

function httpApp(tokens: { alertmanagerToken: string; operatorToken: string }) {
  const queue = recordingQueue();
  const http = createHttpApp({
    app: appOf({
      config: testConfig(),
      store: memoryStore(),
      queue,
      runbooks: ['unmanaged-pods'],
      now: () => new Date('2025-06-02T03:00:00Z'),
      newId: () => 'job-1',
    }),
    secrets: tokens,
  });
  return { http, queue };
}

const postAlert = (http: ReturnType<typeof httpApp>['http'], authorization: string) =>
  http.request('/alerts/alertmanager', {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(unmanagedAlert()),
  });

describe('bearer tokens with any character a secret generator makes', () => {
  it.each([...PUNCTUATION])(
    'a token with %s opens the operator and webhook endpoints, and only the right one',
    async (char) => {
      const token = tokenWith(char);
      const { http, queue } = httpApp({ alertmanagerToken: `am-${token}`, operatorToken: token });
      expect((await http.request('/runs', { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        200,
      );
      expect((await postAlert(http, `Bearer am-${token}`)).status).toBe(202);
      expect(queue.sent).toHaveLength(1);
      // The same length, one character off: refused, not mistaken for malformed.
      const wrong = `${token.slice(0, -1)}${char === '~' ? '!' : '~'}`;
      const refused = await http.request('/runs', { headers: { authorization: `Bearer ${wrong}` } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    },
  );

  it('takes a token made of every punctuation character, as bearer and as the basic auth password', async () => {
    const token = `${PUNCTUATION}Aa0`;
    const { http } = httpApp({ alertmanagerToken: 'am-token', operatorToken: token });
    expect((await http.request('/runs', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const basic = `Basic ${Buffer.from(`operator:${token}`).toString('base64')}`;
    expect((await http.request('/runs', { headers: { authorization: basic } })).status).toBe(200);
  });

  it.each([
    ['a space inside the token', 'Bearer ab cd', 400],
    ['a non-ASCII letter', 'Bearer tökén', 400],
    ['no token after the scheme', 'Bearer ', 400],
    ['another scheme', 'Token abc', 400],
    ['no header', undefined, 401],
  ])('%s → %i, with the header it needs', async (_, authorization, status) => {
    const { http } = httpApp({ alertmanagerToken: 'am-token', operatorToken: 'abcd' });
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const response = await http.request('/runs', { headers });
    expect(response.status).toBe(status);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="cilium-responder"/);
    expect(await response.json()).toEqual({
      error: 'missing or wrong bearer token (Authorization: Bearer <RESPONDER_OPERATOR_TOKEN>)',
    });
  });
});

describe('over a real socket (responder serve)', () => {
  const token = `${PUNCTUATION}Aa0`;
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({
      config: testConfig(),
      chat: consoleSink(collector().stream),
      secrets: { operatorToken: token },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts the all-punctuation operator token from fetch', async () => {
    const response = await fetch(`${server.url}/runs`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ runs: [] });
  });
});
