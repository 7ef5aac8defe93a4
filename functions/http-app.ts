import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { App } from '../src/app/app.ts';
import { UnknownNameError } from '../src/app/unknown-name.ts';
import type { Dispatched } from '../src/routing/dispatch.ts';
import { verifySlackSignature } from '../src/slack/signature.ts';
import { TriggerError } from '../src/validation/trigger-error.ts';
import type { ConsoleOptions } from './console/console-app.ts';
import { checkConsoleSecret } from './console/console-secret.ts';
import { onFirstCall } from './on-first-call.ts';
import { tokenAuth } from './token-auth.ts';

/**
 * The public HTTP surface: Alertmanager and Grafana webhooks, Slack commands and buttons, health. Handlers
 * check and parse, hand a Trigger to the core, and answer at once: nothing here waits for a
 * cluster, so Slack always gets its answer within its 3 seconds.
 */
export interface HttpSecrets {
  slackSigningSecret?: string;
  /** Alertmanager's (and any webhook sender's) bearer token. */
  alertmanagerToken?: string;
  /** Guards the operator endpoints (audit trail, brake reset): not the webhook token. */
  operatorToken?: string;
}

export interface HttpAppDeps {
  /**
   * The core, or how to build it: then it is built by the first request that gets past its
   * checks (token, content type, signature), so a cold start builds none of it (the Lambda entry).
   */
  app: App | (() => Promise<App>);
  secrets: HttpSecrets;
  /**
   * How a missing secret is named in the 503 that says so: where this server keeps it. Default:
   * the environment variables `responder serve` reads.
   */
  secretNames?: Partial<Record<keyof HttpSecrets, string>>;
  /**
   * Request bodies larger than this are refused with 413. Default: 6 MiB, what a Function URL
   * carries, so a real Alertmanager group of thousands of alerts (1,200 make about 1 MB) gets in.
   */
  maxBodyBytes?: number;
  /** Told of each body refused for its size (the Lambda entry logs it and counts a metric), before the 413. */
  onTooLarge?: (refused: { path: string; limit: number }) => void | Promise<void>;
  /**
   * The web console under /ui (functions/console/); without it, /ui answers 503. Its code (and the
   * options, when given as a function) load on the first /ui request: most requests are webhooks.
   */
  console?: ConsoleOptions | (() => Promise<ConsoleOptions>);
  /** Told the origin of each request: the http function's own URL, where its Slack messages link the console. */
  servedAt?: (origin: string) => void;
  /**
   * The clock Slack's signatures are judged by (their 5 minutes), read before the core is built so a
   * forged request builds nothing. Default: the core's clock when the core is given, else the system's.
   */
  now?: () => Date;
}

/** A Function URL carries at most 6 MB (6 MiB) of request. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

type Env = { Variables: { rawBody: string; responder: App } };

const fail = (c: Context, status: 400 | 401 | 413 | 415 | 503, error: string) => c.json({ error }, status);

function requireContentType(type: string): MiddlewareHandler<Env> {
  return async (c, next) => {
    const given = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (given !== type) return fail(c, 415, `content-type must be ${type}, not ${given || 'missing'}`);
    c.set('rawBody', await c.req.text());
    await next();
  };
}

/** Slack's v0 signature over the raw body, within 5 minutes of `now`. Runs after the body is read. */
function slackSignature(secret: string | undefined, name: string, now: () => Date): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (!secret) return fail(c, 503, `the server has no ${name} configured`);
    const check = verifySlackSignature({
      signingSecret: secret,
      timestamp: c.req.header('x-slack-request-timestamp'),
      signature: c.req.header('x-slack-signature'),
      rawBody: c.get('rawBody'),
      now: now(),
    });
    if (!check.ok) return fail(c, 401, `invalid Slack request: ${check.reason}`);
    await next();
  };
}

function parseJsonBody(c: Context<Env>): unknown {
  try {
    return JSON.parse(c.get('rawBody'));
  } catch (error) {
    throw new TriggerError('body', `malformed JSON (${(error as Error).message})`);
  }
}

function formOf(c: Context<Env>): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(c.get('rawBody')));
}

function summary(result: Dispatched) {
  return {
    queued: result.queued.map((job) => ({
      runId: job.resume?.runId ?? job.id,
      cluster: job.cluster,
      runbook: job.runbook,
      mode: job.mode,
    })),
    duplicates: result.duplicates.length,
    // Alerts that came while a run of their pair was queued or running: its follow-up runs them.
    absorbed: result.absorbed.length,
    resolved: result.resolved.map((job) => ({ cluster: job.cluster, runbook: job.runbook })),
    skipped: result.skipped,
    refused: result.refused,
  };
}

/** The environment variables `responder serve` reads the secrets from. */
const ENV_NAMES: Record<keyof HttpSecrets, string> = {
  slackSigningSecret: 'SLACK_SIGNING_SECRET',
  alertmanagerToken: 'ALERTMANAGER_TOKEN',
  operatorToken: 'RESPONDER_OPERATOR_TOKEN',
};

/**
 * The console mounted at /ui on its first request: its pages, sessions and sign-in (jose,
 * openid-client) stay out of a cold start. A load that failed is tried again on the next request.
 */
function lazyConsole(
  core: () => Promise<App>,
  console: ConsoleOptions | (() => Promise<ConsoleOptions>),
): MiddlewareHandler<Env> {
  if (typeof console !== 'function') checkConsoleSecret(console.session.secret);
  const mounted = onFirstCall(async () => {
    const [{ createConsole }, options, responder] = await Promise.all([
      import('./console/console-app.ts'),
      typeof console === 'function' ? console() : console,
      core(),
    ]);
    return new Hono().route('/ui', createConsole(responder, options));
  });
  return async (c) => (await mounted()).fetch(c.req.raw, c.env);
}

/** The payload routes' code (http-payloads.ts), loaded by the first of them. */
const payloads = onFirstCall(() => import('./http-payloads.ts'));

export function createHttpApp(deps: HttpAppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const given = deps.app;
  const core = typeof given === 'function' ? onFirstCall(given) : async () => given;
  /** Puts the core on the request for the handlers after it. */
  const withCore: MiddlewareHandler<Env> = async (c, next) => {
    c.set('responder', await core());
    await next();
  };
  const edge = (c: Context<Env>) => ({ receivedAt: c.get('responder').ports.now() });
  const maxSize = deps.maxBodyBytes ?? MAX_BODY_BYTES;

  app.onError((error, c) => {
    if (error instanceof TriggerError) return c.json({ error: error.message, field: error.field }, 400);
    if (error instanceof UnknownNameError) return c.json({ error: error.message, field: error.field }, 400);
    // The auth middleware's 401s.
    if (error instanceof HTTPException) return error.getResponse();
    throw error;
  });
  app.use(
    '*',
    bodyLimit({
      maxSize,
      onError: async (c) => {
        await deps.onTooLarge?.({ path: c.req.path, limit: maxSize });
        return fail(c, 413, `request body is larger than ${maxSize} bytes`);
      },
    }),
  );
  // An SNS topic subscribed over HTTPS: never confirmed, so SNS sends nothing more.
  app.use('*', async (c, next) => {
    if (!c.req.header('x-amz-sns-message-type')) return next();
    return fail(
      c,
      400,
      "SNS HTTPS subscriptions are not read here: subscribe the alarm function to the topic (protocol lambda; the config's alertTopics does it), see docs/alert-sources.md",
    );
  });

  app.get('/healthz', (c) => c.json({ ok: true }));

  const { servedAt } = deps;
  if (servedAt)
    app.use('*', async (c, next) => {
      servedAt(new URL(c.req.url).origin);
      await next();
    });

  if (deps.console) app.all('/ui/*', lazyConsole(core, deps.console));
  else app.all('/ui/*', (c) => fail(c, 503, 'the web console is not configured on this server'));

  const names = { ...ENV_NAMES, ...deps.secretNames };
  const webhookToken = tokenAuth(
    deps.secrets.alertmanagerToken,
    ENV_NAMES.alertmanagerToken,
    names.alertmanagerToken,
  );
  const operatorToken = tokenAuth(deps.secrets.operatorToken, ENV_NAMES.operatorToken, names.operatorToken);

  const json = requireContentType('application/json');
  app.post('/alerts/alertmanager', webhookToken, json, withCore, async (c) => {
    const trigger = (await payloads()).parseAlertmanager(parseJsonBody(c), edge(c));
    return c.json(summary(await c.get('responder').dispatch(trigger)), 202);
  });

  // Grafana's webhook contact point, with the same token (its Authorization header or basic auth).
  app.post('/alerts/grafana', webhookToken, json, withCore, async (c) => {
    const trigger = (await payloads()).parseGrafana(parseJsonBody(c), edge(c));
    return c.json(summary(await c.get('responder').dispatch(trigger)), 202);
  });

  // The audit trail, newest first, without the full reports: a page, filtered, and where the next starts.
  app.get('/runs', operatorToken, withCore, async (c) => {
    const repeated = Object.entries(c.req.queries()).find(([, values]) => values.length > 1);
    if (repeated) throw new TriggerError(repeated[0], 'given more than once: one value each');
    const { runs, next } = await c.get('responder').history(c.req.query());
    return c.json({ runs: runs.map(({ report: _report, ...record }) => record), ...(next ? { next } : {}) });
  });

  app.post('/brake/reset', operatorToken, json, withCore, async (c) => {
    const body = parseJsonBody(c) as { cluster?: unknown };
    if (typeof body?.cluster !== 'string') throw new TriggerError('cluster', 'expected a cluster name');
    await c
      .get('responder')
      .resetBrake(body.cluster, { source: 'cli', actor: { kind: 'user', id: 'operator' } });
    return c.json({ reset: body.cluster });
  });

  const slackForm = requireContentType('application/x-www-form-urlencoded');
  const clock = deps.now ?? (typeof given === 'function' ? () => new Date() : given.ports.now);
  const signed = slackSignature(deps.secrets.slackSigningSecret, names.slackSigningSecret, clock);

  // Answered at once (ephemeral unless a brake reset): runs are queued, their reports go to the channel.
  app.post('/slack/commands', slackForm, signed, withCore, async (c) =>
    c.json(await (await payloads()).handleSlashCommand(formOf(c), edge(c), c.get('responder'))),
  );

  app.post('/slack/interactions', slackForm, signed, withCore, async (c) => {
    const { parseBlockActions, answerApprovalClick } = await payloads();
    const responder = c.get('responder');
    const trigger = parseBlockActions(formOf(c), edge(c));
    const { chat, store } = responder.ports;
    const text = await answerApprovalClick(trigger, responder, { chat, runs: store.runs });
    return c.json({ response_type: 'ephemeral', replace_original: false, text });
  });

  return app;
}
