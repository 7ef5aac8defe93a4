import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { App } from '../../src/app/app.ts';
import { clusterOverview } from '../../src/app/cluster-overview.ts';
import { fromConsoleForm } from './form-guard.ts';
import { ClustersPage } from './pages/clusters.tsx';
import { runRoutes } from './routes/run.ts';
import { runsPage } from './routes/runs.ts';
import {
  type ConsoleEnv,
  endSession,
  requireSession,
  type SessionSettings,
  type SignInMethod,
  sessionSettings,
} from './session.ts';
import { STYLE } from './style.ts';

/** What the console is built with beside the responder. */
export interface ConsoleOptions {
  /** The session cookie's secret and whether it is Secure (see session.ts); the clock is the app's. */
  session: Omit<SessionSettings, 'now'>;
  /** The ways to sign in (Slack's OpenID Connect in AWS, the one-time link of `serve`). */
  signIn: readonly SignInMethod[];
  /** `responder serve`'s local user: their decisions are the terminal's, as the CLI's are. */
  localUser?: string;
}

/**
 * No script at all, styles and images from the console itself, forms posted only to it, never
 * framed: text an alert smuggles in cannot run, load or send anything.
 */
const CSP = {
  defaultSrc: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/**
 * The web console, mounted at /ui: server-rendered pages over the responder's own operations,
 * each behind a session. Sign-in methods mount their routes first; every other page needs one.
 */
export function createConsole(responder: App, options: ConsoleOptions): Hono<ConsoleEnv> {
  const ui = new Hono<ConsoleEnv>();
  ui.use('*', secureHeaders({ contentSecurityPolicy: CSP, crossOriginEmbedderPolicy: true }));
  ui.use('*', sessionSettings({ ...options.session, now: responder.ports.now }));
  ui.get('/style.css', (c) => c.body(STYLE, 200, { 'content-type': 'text/css; charset=utf-8' }));
  for (const method of options.signIn) method.mount(ui);
  // Reached only when no method answers it: a laptop's console signs in by the link `serve` printed.
  ui.get('/sign-in', (c) =>
    c.text(
      'No sign-in provider is configured here: open the one-time console link `responder serve` printed.',
      401,
    ),
  );
  ui.use('*', requireSession);
  ui.get('/', (c) => c.redirect('/ui/runs', 302));
  ui.post('/sign-out', fromConsoleForm, (c) => {
    endSession(c);
    return c.text('Signed out.');
  });
  ui.get('/runs', runsPage(responder));
  ui.get('/clusters', async (c) =>
    c.html(ClustersPage({ session: c.get('session'), clusters: await clusterOverview(responder) })),
  );
  runRoutes(ui, responder, options.localUser ? { localUser: options.localUser } : {});
  return ui;
}
