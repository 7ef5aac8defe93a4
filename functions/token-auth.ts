import type { Context, MiddlewareHandler } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import { timingSafeEqual } from 'hono/utils/buffer';

/**
 * A shared-secret check: `Authorization: Bearer <token>`, or basic auth with the token as the
 * password (Alertmanager's `basic_auth`, any username). The bearer token may be any visible ASCII:
 * RFC 6750's b64token is narrower, but secret generators (Secrets Manager's GetRandomPassword)
 * emit every punctuation character, so the raw token is compared, in constant time.
 */

/** `Bearer`, one or more spaces, then the token: visible ASCII, no spaces. */
const BEARER = /^bearer +([\x21-\x7e]+)$/i;
const REALM = 'cilium-responder';

export function tokenAuth(token: string | undefined, name: string, missing: string): MiddlewareHandler {
  if (!token) return async (c) => c.json({ error: `the server has no ${missing} configured` }, 503);
  const error = `missing or wrong bearer token (Authorization: Bearer <${name}>)`;
  const refuse = (c: Context, status: 400 | 401, challenge: string) =>
    c.json({ error }, status, { 'WWW-Authenticate': `Bearer realm="${REALM}"${challenge}` });
  const basic = basicAuth({
    realm: REALM,
    verifyUser: (_user, password) => timingSafeEqual(password, token),
    invalidUserMessage: { error },
  });
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    if (/^basic\s/i.test(header)) return basic(c, next);
    if (!header) return refuse(c, 401, '');
    const given = BEARER.exec(header)?.[1];
    if (given === undefined) return refuse(c, 400, ', error="invalid_request"');
    if (!(await timingSafeEqual(given, token))) return refuse(c, 401, ', error="invalid_token"');
    await next();
  };
}
