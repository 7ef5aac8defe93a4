import { timingSafeEqual } from 'node:crypto';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type DispatchContext, type Dispatched, dispatchTrigger } from '../src/routing/dispatch.ts';
import { parseBlockActions, parseSlashCommand } from '../src/slack/index.ts';
import { verifySlackSignature } from '../src/slack/signature.ts';
import { parseAlertmanager, TriggerError } from '../src/triggers/index.ts';
import { slackCommandAnswer } from './slack-answers.ts';

/**
 * The public HTTP surface: Alertmanager webhooks, Slack commands and buttons, health. Handlers
 * check and parse, hand a Trigger to the core, and answer at once: nothing here waits for a
 * cluster, so Slack always gets its answer within its 3 seconds.
 */
export interface HttpAppDeps {
  dispatch: DispatchContext;
  secrets: { slackSigningSecret?: string; alertmanagerToken?: string };
  /** Request bodies larger than this are refused with 413 (default 256 KiB). */
  maxBodyBytes?: number;
}

type Env = { Variables: { rawBody: string } };

const fail = (c: Context, status: 400 | 401 | 413 | 415 | 503, error: string) => c.json({ error }, status);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token from `Authorization: Bearer <token>` or the password of `Basic <user:token>`. */
function presentedToken(header: string | undefined): string | undefined {
  const [scheme, value] = (header ?? '').split(/\s+/, 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return decoded.includes(':') ? decoded.slice(decoded.indexOf(':') + 1) : undefined;
  }
  return undefined;
}

function requireContentType(type: string): MiddlewareHandler<Env> {
  return async (c, next) => {
    const given = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (given !== type) return fail(c, 415, `content-type must be ${type}, not ${given || 'missing'}`);
    c.set('rawBody', await c.req.text());
    await next();
  };
}

/** The webhook token guards Alertmanager's posts and the operator endpoints (history, brake reset). */
function tokenAuth(expected: string | undefined): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (!expected) return fail(c, 503, 'the server has no ALERTMANAGER_TOKEN configured');
    const token = presentedToken(c.req.header('authorization'));
    if (!token || !sameSecret(token, expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="cilium-responder"');
      return fail(c, 401, 'missing or wrong bearer token (Authorization: Bearer <ALERTMANAGER_TOKEN>)');
    }
    await next();
  };
}

/** Slack's v0 signature over the raw body, within 5 minutes. Runs after the body is read. */
function slackSignature(secret: string | undefined, now: () => Date): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (!secret) return fail(c, 503, 'the server has no SLACK_SIGNING_SECRET configured');
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
    resolved: result.resolved.map((job) => ({ cluster: job.cluster, runbook: job.runbook })),
    skipped: result.skipped,
  };
}

export function createHttpApp(deps: HttpAppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const { dispatch } = deps;
  const edge = () => ({ receivedAt: dispatch.now() });
  const maxSize = deps.maxBodyBytes ?? 256 * 1024;

  app.onError((error, c) => {
    if (error instanceof TriggerError) return c.json({ error: error.message, field: error.field }, 400);
    throw error;
  });
  app.use(
    '*',
    bodyLimit({ maxSize, onError: (c) => fail(c, 413, `request body is larger than ${maxSize} bytes`) }),
  );

  app.get('/healthz', (c) => c.json({ ok: true }));

  const webhookToken = tokenAuth(deps.secrets.alertmanagerToken);

  app.post('/alerts/alertmanager', webhookToken, requireContentType('application/json'), async (c) => {
    const trigger = parseAlertmanager(parseJsonBody(c), edge());
    return c.json(summary(await dispatchTrigger(trigger, dispatch)), 202);
  });

  // The audit trail, newest first, without the full reports.
  app.get('/runs', webhookToken, async (c) => {
    const cluster = c.req.query('cluster');
    const limit = Math.min(Number(c.req.query('limit') ?? '50') || 50, 500);
    const runs = await dispatch.store.runs.list({ ...(cluster ? { cluster } : {}), limit });
    return c.json({ runs: runs.map(({ report: _report, ...record }) => record) });
  });

  app.post('/brake/reset', webhookToken, requireContentType('application/json'), async (c) => {
    const body = parseJsonBody(c) as { cluster?: unknown };
    if (typeof body?.cluster !== 'string' || !dispatch.config.clusters.some((k) => k.name === body.cluster)) {
      throw new TriggerError('cluster', 'expected the name of a configured cluster');
    }
    await dispatch.store.brake.reset(body.cluster);
    return c.json({ reset: body.cluster });
  });

  const slackForm = requireContentType('application/x-www-form-urlencoded');
  const signed = slackSignature(deps.secrets.slackSigningSecret, dispatch.now);

  app.post('/slack/commands', slackForm, signed, async (c) => {
    let command: ReturnType<typeof parseSlashCommand>;
    try {
      command = parseSlashCommand(formOf(c), edge());
    } catch (error) {
      // A typo in the command text is the person's to fix: Slack shows a 200 answer to them only.
      if (error instanceof TriggerError && error.field === 'text')
        return c.json({ response_type: 'ephemeral', text: error.message });
      throw error;
    }
    return c.json(await slackCommandAnswer(command, dispatch));
  });

  app.post('/slack/interactions', slackForm, signed, async (c) => {
    const trigger = parseBlockActions(formOf(c), edge());
    const result = await dispatchTrigger(trigger, dispatch);
    const text =
      result.queued.length > 0
        ? `Approved by <@${trigger.actor.id}>: resuming run ${trigger.approval?.runId} with the approved plan.`
        : result.skipped.join('; ') || 'Already handled.';
    return c.json({ response_type: 'ephemeral', replace_original: false, text });
  });

  return app;
}
