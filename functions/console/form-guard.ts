import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { csrf } from 'hono/csrf';
import { timingSafeEqual } from 'hono/utils/buffer';
import type { ConsoleEnv } from './session.ts';

/** The session's token, as the form carries it: a page of another site has neither it nor the cookie's origin. */
const sessionToken: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const form = await c.req.parseBody();
  const token = typeof form.csrf === 'string' ? form.csrf : '';
  if (!(await timingSafeEqual(token, c.get('session').csrf)))
    return c.text('This form is stale or not from the console: open the page again and use it there.', 403);
  await next();
};

/**
 * Every console form is checked twice against cross-site posts: the browser's Origin (or
 * Sec-Fetch-Site) must be the console's own, and the form must carry the session's token.
 */
export const fromConsoleForm: MiddlewareHandler<ConsoleEnv> = every(csrf(), sessionToken);
