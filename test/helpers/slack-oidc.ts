import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'console-test-client';
export const CLIENT_SECRET = 'console-test-client-secret-3b9e51c27a';
/** The workspace whoever signs in belongs to, unless `teams` says otherwise. */
export const TEAM_ID = 'T0RESPOND1';

export interface SlackOidc {
  /** The issuer, http://127.0.0.1:<port>: what the console is told instead of https://slack.com. */
  issuer: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider, with its development login page) standing in for Slack:
 * whoever signs in with login `U…` gets an ID token whose `sub` and `https://slack.com/user_id`
 * are that id, as Slack's are, their `name`, and `https://slack.com/team_id` their workspace.
 */
export async function startSlackOidc(
  redirectUri: string,
  names: Record<string, string>,
  teams: Record<string, string> = {},
): Promise<SlackOidc> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub', 'https://slack.com/user_id', 'https://slack.com/team_id'], profile: ['name'] },
    // Slack puts the profile in the ID token itself.
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        'https://slack.com/user_id': id,
        'https://slack.com/team_id': teams[id] ?? TEAM_ID,
        name: names[id] ?? id,
      }),
    }),
    cookies: { keys: ['slack-oidc-test-cookie-key'] },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'slack-oidc-test' }] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
