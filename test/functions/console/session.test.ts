import { describe, expect, it } from 'vitest';
import { safeNext } from '../../../functions/console/session.ts';
import { OPERATOR_TOKEN } from '../harness.ts';
import { CONSOLE_SECRET, consoleUnderTest, cookieOf, ORIGIN } from './harness.ts';

describe('console sessions', () => {
  it('sends a browser without a session to sign in, and back where it was going', async () => {
    const { get } = consoleUnderTest();
    const answer = await get('/ui/runs?cluster=prod-eu');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/ui/sign-in?next=%2Fui%2Fruns%3Fcluster%3Dprod-eu');
  });

  it('answers 401 to a request without a session that is not for a page', async () => {
    const { http } = consoleUnderTest();
    const answer = await http.request(`${ORIGIN}/ui/runs`, { headers: { accept: 'application/json' } });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: expect.stringContaining('sign in') });
  });

  it('does not take the operator token as a login', async () => {
    const { get, http } = consoleUnderTest();
    const bearer = await get('/ui/runs', { authorization: `Bearer ${OPERATOR_TOKEN}` });
    expect(bearer.status).toBe(302);
    const basic = await http.request(`${ORIGIN}/ui/runs`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${OPERATOR_TOKEN}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
  });

  it('sets an HttpOnly, Secure, SameSite=Lax cookie with an expiry, unreadable by the browser', async () => {
    const { get, signIn } = consoleUnderTest();
    const answer = await get('/ui/test-sign-in/U0APPROVER1');
    const set = answer.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^__Host-responder-session=/);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('Secure');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Max-Age=43200');
    expect(set).toContain('Expires=Sat, 21 Nov 2026 22:00:00 GMT');
    // Encrypted: neither the user id nor its base64 is in it.
    const value = cookieOf(answer).split('=')[1] as string;
    const decoded = value
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join(' ');
    expect(decoded).not.toContain('U0APPROVER1');
    expect(value.split('.')).toHaveLength(5);
    const page = await get('/ui/runs', { cookie: await signIn() });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('signed in as U0APPROVER1');
  });

  it('refuses a cookie changed by one character, or sealed with another secret', async () => {
    const { get, signIn } = consoleUnderTest();
    const cookie = await signIn();
    const [name, value] = cookie.split('=') as [string, string];
    // One character of the ciphertext changed: GCM's tag no longer matches.
    const parts = value.split('.');
    const body = parts[3] as string;
    parts[3] = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect((await get('/ui/runs', { cookie: `${name}=${parts.join('.')}` })).status).toBe(302);
    const elsewhere = await consoleUnderTest({ secret: `${CONSOLE_SECRET}-other` }).signIn();
    expect((await get('/ui/runs', { cookie: elsewhere })).status).toBe(302);
    expect((await get('/ui/runs', { cookie })).status).toBe(200);
  });

  it('ends the session when it expires', async () => {
    const { get, signIn, clock } = consoleUnderTest();
    const cookie = await signIn();
    clock.advance(12 * 60 * 60 * 1000 - 1000);
    expect((await get('/ui/runs', { cookie })).status).toBe(200);
    clock.advance(2000);
    expect((await get('/ui/runs', { cookie })).status).toBe(302);
  });

  it('leaves Secure off only for the loopback console of `serve`, and drops the __Host- prefix', async () => {
    const { get } = consoleUnderTest({ secure: false });
    const set = (await get('/ui/test-sign-in/U1')).headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^responder-session=/);
    expect(set).not.toContain('Secure');
    expect(set).toContain('HttpOnly');
  });

  it('signs the local user in once by the one-time link', async () => {
    const { get, local } = consoleUnderTest();
    const link = new URL(local.link(ORIGIN));
    expect(link.pathname).toBe('/ui/sign-in/local');
    const first = await get(`${link.pathname}${link.search}`);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/ui/runs');
    const page = await get('/ui/runs', { cookie: cookieOf(first) });
    expect(await page.text()).toContain('signed in as dev');
    const again = await get(`${link.pathname}${link.search}`);
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((await get('/ui/sign-in/local?token=guess')).status).toBe(403);
  });

  it('only sends a browser on to console paths after sign-in', () => {
    expect(safeNext('/ui/runs/r-1')).toBe('/ui/runs/r-1');
    for (const away of ['https://evil.example', '//evil.example/ui/', '/ui\\@evil', undefined, '/healthz'])
      expect(safeNext(away)).toBe('/ui/runs');
  });

  it('needs a console secret of at least 32 characters', () => {
    expect(() => consoleUnderTest({ secret: 'short' })).toThrow('at least 32 characters');
  });
});
