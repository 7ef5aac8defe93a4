import { hkdfSync, randomBytes } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { CompactEncrypt, compactDecrypt, jwtVerify, SignJWT } from 'jose';
import { checkConsoleSecret } from './console-secret.ts';

/**
 * The console's session: who signed in (a Slack user id, the id approvers are named by), until
 * when, and the token its forms carry against cross-site posts. It lives in one cookie, a JWT
 * signed (HS256) then encrypted (dir, A256GCM) with keys derived from the console secret, so the
 * browser can neither read nor change it; HttpOnly, SameSite=Lax, Secure except for `responder
 * serve` on http://127.0.0.1, with an expiry in the cookie and in the token.
 */

export interface ConsoleUser {
  /** The Slack user id (`U…`), or the local user (`local:<name>`) of `responder serve`. */
  userId: string;
  name?: string;
}

export interface Session extends ConsoleUser {
  /** ISO time the session ends. */
  expiresAt: string;
  /** Carried by every form of this session: a post without it is refused. */
  csrf: string;
}

export interface SessionSettings {
  /** The console secret: at least 32 characters, random; changing it signs everyone out. */
  secret: string;
  /** Secure cookie: false only where the console is served over http on the loopback (`serve`). */
  secure: boolean;
  /** How long a session lasts. Default: 12 hours. */
  ttlSeconds?: number;
  now: () => Date;
}

interface SessionKeys {
  sign: Uint8Array;
  encrypt: Uint8Array;
  cookie: string;
  secure: boolean;
  ttlSeconds: number;
  now: () => Date;
}

export type ConsoleEnv = { Variables: { sessionKeys: SessionKeys; session: Session } };

/** A way to sign in, mounted under /ui before any page asks for a session. */
export interface SignInMethod {
  /**
   * Adds the method's routes to the console (paths relative to /ui, such as `/sign-in` and
   * `/auth/callback`); a route that signs someone in calls {@link startSession}, then redirects to
   * {@link safeNext} of where they were going.
   */
  mount(console: Hono<ConsoleEnv>): void;
}

export const DEFAULT_TTL_SECONDS = 12 * 60 * 60;
const ISSUER = 'cilium-responder-console';

function derive(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, ISSUER, purpose, 32));
}

/** Checks the settings and derives the keys once; mount it before anything reads a session. */
export function sessionSettings(settings: SessionSettings): MiddlewareHandler<ConsoleEnv> {
  checkConsoleSecret(settings.secret);
  const keys: SessionKeys = {
    sign: derive(settings.secret, 'session signing'),
    encrypt: derive(settings.secret, 'session encryption'),
    // `__Host-`: the browser keeps it only if Secure, on this host, for every path.
    cookie: settings.secure ? '__Host-responder-session' : 'responder-session',
    secure: settings.secure,
    ttlSeconds: settings.ttlSeconds ?? DEFAULT_TTL_SECONDS,
    now: settings.now,
  };
  return async (c, next) => {
    c.set('sessionKeys', keys);
    await next();
  };
}

function keysOf(c: Context): SessionKeys {
  const keys = (c as Context<ConsoleEnv>).get('sessionKeys');
  if (!keys) throw new Error('sessionSettings() is not mounted before this route');
  return keys;
}

/** Signs `user` in: sets the session cookie on the answer and returns the session. */
export async function startSession(c: Context, user: ConsoleUser): Promise<Session> {
  const keys = keysOf(c);
  const now = keys.now();
  const expires = new Date(now.getTime() + keys.ttlSeconds * 1000);
  const session: Session = {
    userId: user.userId,
    ...(user.name ? { name: user.name } : {}),
    expiresAt: expires.toISOString(),
    csrf: randomBytes(24).toString('base64url'),
  };
  const signed = await new SignJWT({ name: session.name, csrf: session.csrf })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(session.userId)
    .setIssuedAt(now)
    .setExpirationTime(expires)
    .sign(keys.sign);
  const sealed = await new CompactEncrypt(new TextEncoder().encode(signed))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' })
    .encrypt(keys.encrypt);
  setCookie(c, keys.cookie, sealed, {
    httpOnly: true,
    secure: keys.secure,
    sameSite: 'Lax',
    path: '/',
    expires,
    maxAge: keys.ttlSeconds,
  });
  (c as Context<ConsoleEnv>).set('session', session);
  return session;
}

/** The request's session, if its cookie is one this secret sealed and it has not expired. */
export async function readSession(c: Context): Promise<Session | undefined> {
  const keys = keysOf(c);
  const sealed = getCookie(c, keys.cookie);
  if (!sealed) return undefined;
  try {
    const { plaintext } = await compactDecrypt(sealed, keys.encrypt, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    const { payload } = await jwtVerify(plaintext, keys.sign, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: keys.now(),
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.csrf !== 'string' || typeof payload.sub !== 'string' || !payload.exp) return undefined;
    return {
      userId: payload.sub,
      ...(typeof payload.name === 'string' ? { name: payload.name } : {}),
      expiresAt: new Date(payload.exp * 1000).toISOString(),
      csrf: payload.csrf,
    };
  } catch {
    // Tampered, sealed with another secret, or expired: no session.
    return undefined;
  }
}

/** Signs out: the cookie is cleared. */
export function endSession(c: Context): void {
  const keys = keysOf(c);
  deleteCookie(c, keys.cookie, { path: '/', secure: keys.secure });
}

/**
 * Where a browser goes once signed in: a console path only (never another site), the runs
 * list when none was given or it was not one.
 */
export function safeNext(next: string | undefined): string {
  if (!next?.startsWith('/ui/') || next.startsWith('//') || /[\\\s]/.test(next)) return '/ui/runs';
  return next;
}

/** The sign-in page, told where to come back to. */
export function signInUrl(next: string): string {
  return `/ui/sign-in?${new URLSearchParams({ next })}`;
}

/**
 * Every console page behind it needs a session: without one, a browser asking for a page is
 * sent to sign in (and back afterwards); anything else is told 401.
 */
export const requireSession: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const session = await readSession(c);
  if (!session) {
    const wantsHtml = (c.req.header('accept') ?? '').includes('text/html');
    if (!wantsHtml) return c.json({ error: 'sign in to the console first (no session, or it expired)' }, 401);
    const url = new URL(c.req.url);
    return c.redirect(signInUrl(`${url.pathname}${url.search}`), 302);
  }
  c.set('session', session);
  await next();
};
