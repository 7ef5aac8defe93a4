import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleEnv, requireSession, sessionSettings } from '../../../functions/console/session.ts';
import { CALLBACK_PATH, slackSignIn } from '../../../functions/console/slack-sign-in.ts';
import { launchChromium, signInAtProvider } from '../../helpers/browser.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type SlackOidc,
  startSlackOidc,
  TEAM_ID,
} from '../../helpers/slack-oidc.ts';

const ALICE = 'U0ALICE01';
/** Signs in to Slack, but in another workspace. */
const MALLORY = 'U0MALLORY1';

/**
 * Sign in with Slack through a real OpenID provider on the loopback and a real browser: the
 * console's session names the Slack user the provider vouched for, and a callback that does not
 * belong to the flow this browser began signs no one in.
 */
describe('sign in with Slack (OpenID Connect)', () => {
  let browser: Browser;
  let provider: SlackOidc;
  let base: string;
  let close: () => void;
  /** When set, the provider's answer reaches the console with this state instead of its own. */
  let forgeState: string | undefined;
  const forged = (request: Request) => {
    const url = new URL(request.url);
    if (!forgeState || url.pathname !== CALLBACK_PATH) return request;
    url.searchParams.set('state', forgeState);
    return new Request(url, request);
  };

  let app: Hono | undefined;
  let consoleFor: (teamId: string | undefined) => Hono;
  beforeAll(async () => {
    const server = serve({
      fetch: (request) => (app as Hono).fetch(forged(request)),
      port: 0,
      hostname: '127.0.0.1',
    });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
    provider = await startSlackOidc(
      `${base}${CALLBACK_PATH}`,
      { [ALICE]: 'Alice Example' },
      { [MALLORY]: 'T0ELSEWHERE' },
    );
    consoleFor = (teamId) => {
      const ui = new Hono<ConsoleEnv>();
      ui.use('*', sessionSettings({ secret: 's'.repeat(40), secure: false, now: () => new Date() }));
      slackSignIn({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        issuer: provider.issuer,
        teamId,
      }).mount(ui);
      ui.use('*', requireSession);
      ui.get('/me', (c) => c.json(c.get('session')));
      return new Hono().route('/ui', ui);
    };
    app = consoleFor(TEAM_ID);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    close?.();
  });

  /** The console's cookies (the provider shares the host, 127.0.0.1, so its cookies are in the same jar). */
  const sessionCookies = async (context: BrowserContext) =>
    (await context.cookies(base)).filter((cookie) => cookie.name.startsWith('responder-'));

  it('a page asked for without a session goes through the provider and comes back signed in as that Slack user', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const toProvider = page.waitForRequest((request) => request.url().startsWith(provider.issuer));
    await page.goto(`${base}/ui/me?from=test`);
    const asked = new URL((await toProvider).url());
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${base}${CALLBACK_PATH}`,
      response_type: 'code',
      scope: 'openid profile',
      code_challenge_method: 'S256',
    });
    for (const check of ['state', 'nonce', 'code_challenge'])
      expect(asked.searchParams.get(check)?.length).toBeGreaterThanOrEqual(22);

    await signInAtProvider(page, provider.issuer, ALICE);
    expect(page.url()).toBe(`${base}/ui/me?from=test`);
    const session = JSON.parse((await page.textContent('body')) ?? '{}');
    expect(session).toMatchObject({ userId: ALICE, name: 'Alice Example' });
    // The flow's cookie is spent; the session's is HttpOnly and Lax.
    const cookies = await sessionCookies(context);
    expect(cookies.map((cookie) => cookie.name)).toEqual(['responder-session']);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await context.close();
  }, 60_000);

  it('a callback whose state is not the one this browser was given signs no one in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/ui/me`);
    forgeState = 'the-state-of-another-flow';
    try {
      await signInAtProvider(page, provider.issuer, ALICE);
    } finally {
      forgeState = undefined;
    }
    expect(await page.textContent('body')).toMatch(/^Sign in with Slack failed: .*"state"/);
    expect(await sessionCookies(context)).toEqual([]);
    // As the answer says: opening the console again signs in (the provider remembers Alice).
    await page.goto(`${base}/ui/me`);
    expect(JSON.parse((await page.textContent('body')) ?? '{}')).toMatchObject({ userId: ALICE });
    await context.close();
  }, 60_000);

  it("a person who cancels at the provider is told the provider's answer, and is not signed in", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/ui/me`);
    await page.click('a:has-text("Cancel")');
    await page.waitForURL((url) => url.href.startsWith(`${base}${CALLBACK_PATH}`));
    // oidc-provider's words for access_denied after a cancel (Slack's: "access_denied").
    expect(await page.textContent('body')).toBe(
      'Sign in with Slack failed: End-User aborted interaction. Open the console again to retry.',
    );
    expect(await sessionCookies(context)).toEqual([]);
    await context.close();
  }, 60_000);

  it('a person of another Slack workspace is refused with what to do, and is not signed in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const answer = page.waitForResponse((response) => response.url().startsWith(`${base}${CALLBACK_PATH}`));
    await page.goto(`${base}/ui/me`);
    await signInAtProvider(page, provider.issuer, MALLORY);
    expect((await answer).status()).toBe(403);
    expect(await page.textContent('main p')).toBe(
      `This console is for members of Slack workspace ${TEAM_ID} only. Sign in to that workspace in Slack, then open the console again.`,
    );
    expect(await sessionCookies(context)).toEqual([]);
    await context.close();
  }, 60_000);

  it('without slack.teamId configured, no one is signed in and the page names the field', async () => {
    app = consoleFor(undefined);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/ui/me`);
      await signInAtProvider(page, provider.issuer, ALICE);
      expect(await page.textContent('main p')).toBe(
        "Sign in with Slack is not set up: set slack.teamId in responder.config.yaml to your workspace's team id (T…) and deploy again.",
      );
      expect(await sessionCookies(context)).toEqual([]);
    } finally {
      app = consoleFor(TEAM_ID);
      await context.close();
    }
  }, 60_000);

  it('a callback without the flow this browser began is refused and says how to start again', async () => {
    const answer = await fetch(`${base}${CALLBACK_PATH}?code=stolen&state=whatever`, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/expired or began in another browser/);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('refuses an issuer that is not https, except on the loopback', () => {
    expect(() =>
      slackSignIn({ clientId: 'c', clientSecret: 's', issuer: 'http://slack.example.com', teamId: TEAM_ID }),
    ).toThrow('the sign-in issuer must be https (http only on the loopback), not http://slack.example.com');
  });
});
