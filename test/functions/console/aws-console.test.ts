import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsConsole } from '../../../functions/console/aws-console.ts';
import { CALLBACK_PATH } from '../../../functions/console/slack-sign-in.ts';
import { createHttpApp } from '../../../functions/http-app.ts';
import type { Secrets } from '../../../functions/runtime.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type SlackOidc,
  startSlackOidc,
  TEAM_ID,
} from '../../helpers/slack-oidc.ts';
import { appOf, appUnderTest, OPERATOR_TOKEN } from '../harness.ts';

/** The Function URL the stack outputs (what the browser asked for). */
const ORIGIN = 'https://abc123.lambda-url.eu-west-1.on.aws';
const HTML = { accept: 'text/html' };

/** The console as functions/http.ts builds it from the stack's secret, Slack's provider on the loopback. */
describe('the console in AWS', () => {
  let provider: SlackOidc;
  beforeAll(async () => {
    provider = await startSlackOidc(`${ORIGIN}${CALLBACK_PATH}`, {});
  });
  afterAll(() => provider?.close());

  const httpApp = (secrets: Secrets) =>
    createHttpApp({
      app: appOf(appUnderTest().dispatch),
      secrets,
      console: awsConsole(secrets, TEAM_ID, provider.issuer),
    });

  it('is off until the Slack app client id and secret are put: /ui answers 503', async () => {
    const app = httpApp({ operatorToken: OPERATOR_TOKEN.repeat(4), slackClientId: CLIENT_ID });
    const answer = await app.request(`${ORIGIN}/ui/runs`, { headers: HTML });
    expect(answer.status).toBe(503);
  });

  it('with them, a page sends the browser to sign in with Slack: code flow with PKCE, back to the Function URL, a Secure host-only cookie', async () => {
    const app = httpApp({
      operatorToken: OPERATOR_TOKEN.repeat(4),
      slackClientId: CLIENT_ID,
      slackClientSecret: CLIENT_SECRET,
    });
    const page = await app.request(`${ORIGIN}/ui/runs?cluster=prod-eu`, { headers: HTML });
    expect(page.status).toBe(302);
    const signIn = page.headers.get('location') as string;
    expect(signIn).toBe('/ui/sign-in?next=%2Fui%2Fruns%3Fcluster%3Dprod-eu');

    const toSlack = await app.request(`${ORIGIN}${signIn}`, { headers: HTML });
    expect(toSlack.status).toBe(302);
    const asked = new URL(toSlack.headers.get('location') as string);
    expect(`${asked.origin}${asked.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}${CALLBACK_PATH}`,
      scope: 'openid profile',
      code_challenge_method: 'S256',
    });
    expect(toSlack.headers.get('set-cookie')).toMatch(
      /^__Host-responder-sign-in=[^;]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });
});
