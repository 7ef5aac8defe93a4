import { localSignIn } from '../../../functions/console/local-sign-in.ts';
import { type SignInMethod, startSession } from '../../../functions/console/session.ts';
import { createHttpApp } from '../../../functions/http-app.ts';
import { RUNBOOK_CATALOG } from '../../../runbooks/catalog.ts';
import type { ChatSink } from '../../../src/chat/types.ts';
import type { DispatchContext } from '../../../src/routing/dispatch.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { StateStore } from '../../../src/store/types.ts';
import {
  APPROVER,
  appOf,
  RUNBOOK_IDS,
  recordingQueue,
  TEST_SECRETS,
  testClock,
  testConfig,
} from '../harness.ts';

export const CONSOLE_SECRET = 'console-secret-for-tests-0123456789abcdef';
export const ORIGIN = 'https://responder.example.com';
export const HTML = { accept: 'text/html,application/xhtml+xml' };

/** Signs anyone in by their id at /ui/test-sign-in/<id>: how a sign-in method plugs in. */
const anyoneSignIn: SignInMethod = {
  mount(ui) {
    ui.get('/test-sign-in/:user', async (c) => {
      await startSession(c, { userId: c.req.param('user') });
      return c.redirect('/ui/runs', 303);
    });
  },
};

/**
 * The HTTP app with the console on it, as the stack serves it (Secure cookies on https), the memory
 * store and a settable clock; `signIn(user)` gives a session cookie for anyone.
 */
export function consoleUnderTest(
  options: {
    secure?: boolean;
    secret?: string;
    /** The app's chat (default: a console sink); `servedAt` is told each request's origin, as in Lambda. */
    chat?: ChatSink;
    servedAt?: (origin: string) => void;
  } = {},
) {
  const store: StateStore = memoryStore();
  const clock = testClock(new Date('2026-11-21T10:00:00Z'));
  const local = localSignIn({ userId: 'local:dev', name: 'dev' });
  const queue = recordingQueue();
  const dispatch: DispatchContext = {
    config: testConfig(),
    store,
    queue,
    runbooks: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    now: clock.now,
    newId: () => 'job-1',
    ...(options.chat ? { chat: options.chat } : {}),
  };
  const responder = appOf(dispatch);
  const http = createHttpApp({
    app: responder,
    secrets: TEST_SECRETS,
    console: {
      session: { secret: options.secret ?? CONSOLE_SECRET, secure: options.secure ?? true },
      signIn: [local.method, anyoneSignIn],
    },
    ...(options.servedAt ? { servedAt: options.servedAt } : {}),
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    http.request(`${ORIGIN}${path}`, { headers: { ...HTML, ...headers } });
  async function signIn(user = APPROVER): Promise<string> {
    const answer = await get(`/ui/test-sign-in/${user}`);
    return cookieOf(answer);
  }
  return { http, store, queue, clock, local, responder, dispatch, get, signIn };
}

/** The `name=value` of the session cookie an answer sets. */
export function cookieOf(answer: Response): string {
  const set = answer.headers.get('set-cookie');
  if (!set) throw new Error(`no cookie set (status ${answer.status})`);
  return set.split(';')[0] as string;
}
