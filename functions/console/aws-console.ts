import type { Secrets } from '../runtime.ts';
import type { ConsoleOptions } from './console-app.ts';
import { checkConsoleSecret } from './console-secret.ts';

/** The secret fields the console needs in AWS: Slack's OpenID client, and the key its sessions come from. */
export const CONSOLE_FIELDS = ['slackClientId', 'slackClientSecret', 'operatorToken'] as const;

/**
 * The console as the stack serves it: Sign in with Slack, Secure cookies. Its session keys are
 * derived (HKDF, their own purpose) from the generated operatorToken, so the stack holds no other
 * secret for it and the token itself is never a cookie nor a login; rotating it signs everyone out.
 * Only members of the config's slack.teamId sign in.
 * Without the Slack client fields there is no console (/ui answers 503; the cold start logs them).
 * The sign-in (jose, openid-client) loads with the console, on its first request.
 */
export function awsConsole(
  secrets: Secrets,
  teamId: string | undefined,
  issuer?: string,
): (() => Promise<ConsoleOptions>) | undefined {
  const { slackClientId, slackClientSecret, operatorToken } = secrets;
  if (!slackClientId || !slackClientSecret || !operatorToken) return undefined;
  checkConsoleSecret(operatorToken);
  return async () => {
    const { slackSignIn } = await import('./slack-sign-in.ts');
    return {
      session: { secret: operatorToken, secure: true },
      signIn: [
        slackSignIn({
          clientId: slackClientId,
          clientSecret: slackClientSecret,
          teamId,
          ...(issuer ? { issuer } : {}),
        }),
      ],
    };
  };
}
