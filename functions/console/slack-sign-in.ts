import { hkdfSync } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { EncryptJWT, jwtDecrypt } from 'jose';
import * as oidc from 'openid-client';
import { type ConsoleEnv, type SignInMethod, safeNext, startSession } from './session.ts';

/** Slack's OpenID Connect issuer: "Sign in with Slack". */
export const SLACK_ISSUER = 'https://slack.com';
/** Where the provider sends the browser back, below the console's origin (the Slack app's Redirect URL). */
export const CALLBACK_PATH = '/ui/auth/callback';
/** Slack's claim with the user id approvers are named by (`sub` carries the same). */
const SLACK_USER_ID = 'https://slack.com/user_id';
/** Slack's claim with the workspace the person signed in to. */
const SLACK_TEAM_ID = 'https://slack.com/team_id';
/** How long a browser has between leaving for the provider and coming back. */
const FLOW_SECONDS = 10 * 60;

export interface SlackSignInSettings {
  /** The Slack app's client id and secret (the stack's secret: slackClientId, slackClientSecret). */
  clientId: string;
  clientSecret: string;
  /** Default https://slack.com; a test points it at a local provider (http only on the loopback). */
  issuer?: string;
  /** The config's slack.teamId: only members of that workspace are signed in. */
  teamId: string | undefined;
  /** Discovery and token requests give up after this many seconds. Default 5 (the http function has 10). */
  timeoutSeconds?: number;
}

/** What the browser keeps between the redirect and the callback, sealed so it can neither read nor change it. */
interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function issuerUrl(issuer: string): { url: URL; insecure: boolean } {
  const url = new URL(issuer);
  if (url.protocol === 'https:') return { url, insecure: false };
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return { url, insecure: true };
  throw new Error(`the sign-in issuer must be https (http only on the loopback), not ${issuer}`);
}

/**
 * "Sign in with Slack": OpenID Connect's code flow with PKCE, state and nonce, done by
 * openid-client (discovery, the code exchange, the ID token's signature, issuer, audience, expiry
 * and nonce). The person signed in is the Slack user id approvers are named by.
 */
export function slackSignIn(settings: SlackSignInSettings): SignInMethod {
  const { url: issuer, insecure } = issuerUrl(settings.issuer ?? SLACK_ISSUER);
  const flowKey = new Uint8Array(
    hkdfSync('sha256', settings.clientSecret, 'cilium-responder-console', 'sign-in flow', 32),
  );
  let discovered: Promise<oidc.Configuration> | undefined;
  // Discovered once per instance; a failed discovery is tried again on the next sign-in.
  const configuration = () => {
    discovered ??= oidc
      .discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
        timeout: settings.timeoutSeconds ?? 5,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  const cookieOf = (c: Context<ConsoleEnv>) => {
    const secure = c.get('sessionKeys').secure;
    return { name: secure ? '__Host-responder-sign-in' : 'responder-sign-in', secure };
  };

  async function sealFlow(c: Context<ConsoleEnv>, flow: Flow): Promise<void> {
    const sealed = await new EncryptJWT({ ...flow })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setExpirationTime(`${FLOW_SECONDS}s`)
      .encrypt(flowKey);
    const { name, secure } = cookieOf(c);
    // Lax: the provider's redirect back is a top-level GET from its site, which Lax lets through.
    setCookie(c, name, sealed, { httpOnly: true, secure, sameSite: 'Lax', path: '/', maxAge: FLOW_SECONDS });
  }

  async function takeFlow(c: Context<ConsoleEnv>): Promise<Flow | undefined> {
    const { name, secure } = cookieOf(c);
    const sealed = getCookie(c, name);
    if (!sealed) return undefined;
    deleteCookie(c, name, { path: '/', secure });
    try {
      const { payload } = await jwtDecrypt(sealed, flowKey, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      const { state, nonce, verifier, next } = payload;
      if ([state, nonce, verifier, next].some((value) => typeof value !== 'string')) return undefined;
      return { state, nonce, verifier, next } as Flow;
    } catch {
      // Expired, or not sealed by this server.
      return undefined;
    }
  }

  return {
    mount(ui) {
      ui.get('/sign-in', async (c) => {
        const flow: Flow = {
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
          verifier: oidc.randomPKCECodeVerifier(),
          next: safeNext(c.req.query('next')),
        };
        let config: oidc.Configuration;
        try {
          config = await configuration();
        } catch (error) {
          return c.text(
            `Slack's sign-in cannot be reached (${(error as Error).message}): try again shortly.`,
            502,
          );
        }
        const to = oidc.buildAuthorizationUrl(config, {
          redirect_uri: new URL(CALLBACK_PATH, c.req.url).href,
          scope: 'openid profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
          code_challenge_method: 'S256',
          state: flow.state,
          nonce: flow.nonce,
        });
        await sealFlow(c, flow);
        return c.redirect(to.href, 302);
      });

      ui.get('/auth/callback', async (c) => {
        const flow = await takeFlow(c);
        if (!flow)
          return c.text(
            'This sign-in expired or began in another browser: open the console again to sign in with Slack.',
            400,
          );
        let claims: oidc.IDToken | undefined;
        try {
          const tokens = await oidc.authorizationCodeGrant(await configuration(), new URL(c.req.url), {
            pkceCodeVerifier: flow.verifier,
            expectedState: flow.state,
            expectedNonce: flow.nonce,
            idTokenExpected: true,
          });
          claims = tokens.claims();
        } catch (error) {
          if (!(error instanceof Error)) throw error;
          return c.text(`Sign in with Slack failed: ${reason(error)}. Open the console again to retry.`, 403);
        }
        const refused = teamRefusal(settings.teamId, claims?.[SLACK_TEAM_ID]);
        if (refused) return c.html(refused.page, refused.status);
        const userId = claims?.[SLACK_USER_ID] ?? claims?.sub;
        if (typeof userId !== 'string' || !userId)
          return c.text('Sign in with Slack failed: the ID token names no Slack user.', 403);
        const name = claims?.name;
        await startSession(c, { userId, ...(typeof name === 'string' && name ? { name } : {}) });
        return c.redirect(flow.next, 303);
      });
    },
  };
}

/** Why a verified ID token still signs no one in: no workspace configured, or another workspace's person. */
function teamRefusal(
  teamId: string | undefined,
  claimed: unknown,
): { status: 403 | 503; page: string } | undefined {
  if (!teamId)
    return {
      status: 503,
      page: refusalPage(
        "Sign in with Slack is not set up: set <code>slack.teamId</code> in responder.config.yaml to your workspace's team id (T…) and deploy again.",
      ),
    };
  if (claimed === teamId) return undefined;
  return {
    status: 403,
    page: refusalPage(
      `This console is for members of Slack workspace ${teamId} only. Sign in to that workspace in Slack, then open the console again.`,
    ),
  };
}

/** A short page of its own: the console's layout needs a session, which a refused person has not. */
function refusalPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not signed in</title></head><body><main><h1>Not signed in</h1><p>${message}</p></main></body></html>`;
}

/** The provider's own words when it refused (access_denied when the person cancels), else the check that failed. */
function reason(error: Error): string {
  if (error instanceof oidc.AuthorizationResponseError) return error.error_description ?? error.error;
  // openid-client wraps oauth4webapi's precise error ("unexpected "state" response parameter value").
  return error.cause instanceof Error ? error.cause.message : error.message;
}
