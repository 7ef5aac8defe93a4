import { randomBytes } from 'node:crypto';
import { timingSafeEqual } from 'hono/utils/buffer';
import { type ConsoleUser, type SignInMethod, startSession } from './session.ts';

/** The path of the one-time link, under /ui. */
const PATH = '/sign-in/local';

export interface LocalSignIn {
  method: SignInMethod;
  /** A new one-time link on `baseUrl` (the one before it stops working): what `serve` prints. */
  link(baseUrl: string): string;
}

/**
 * Signing in on a laptop, as Jupyter does: `responder serve` prints a link with a one-time
 * token, and opening it starts a session for the local user. The token works once; the
 * operator token is not a login.
 */
export function localSignIn(user: ConsoleUser): LocalSignIn {
  let token: string | undefined;
  return {
    link(baseUrl) {
      token = randomBytes(24).toString('base64url');
      return `${baseUrl.replace(/\/$/, '')}/ui${PATH}?${new URLSearchParams({ token })}`;
    },
    method: {
      mount(console) {
        console.get(PATH, async (c) => {
          const given = c.req.query('token');
          const expected = token;
          if (!given || !expected || !(await timingSafeEqual(given, expected)))
            return c.text(
              'This sign-in link is used or wrong: restart `responder serve` for a new one.',
              403,
            );
          token = undefined;
          await startSession(c, user);
          return c.redirect('/ui/runs', 303);
        });
      },
    },
  };
}
