import type { Context, Hono } from 'hono';
import type { App } from '../../../src/app/app.ts';
import { answerApprovalClick } from '../../../src/app/approval-click.ts';
import { summarize } from '../../../src/report/summary.ts';
import { fullReportText } from '../../../src/report/text.ts';
import { isApprover } from '../../../src/routing/approval.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import { deliveryKey } from '../../../src/triggers/delivery-key.ts';
import type { Trigger } from '../../../src/triggers/types.ts';
import { fromConsoleForm } from '../form-guard.ts';
import { RunPage } from '../pages/run.tsx';
import { runLink } from '../pages/runs.tsx';
import type { ConsoleEnv, Session } from '../session.ts';

export interface RunRoutesOptions {
  /** The user whose decisions are the terminal's (`responder serve`'s local user), as the CLI's are. */
  localUser?: string;
}

/** Waiting for a person: a plan made, nobody has decided, not rejected. */
function waitsForApproval(record: RunRecord): boolean {
  return record.verdict === 'needs-approval' && record.status === 'done' && !record.decision && !record.error;
}

/**
 * `/ui/runs/<runId>`, its full report as text, and Approve/Reject: the decision goes through the
 * same dispatch as Slack's buttons (approver of that runbook, plan not expired, one decision per
 * run), from a form carrying the session's token, posted from the console's own origin.
 */
export function runRoutes(ui: Hono<ConsoleEnv>, responder: App, options: RunRoutesOptions = {}): void {
  const { config, directory, chat, store } = responder.ports;
  const isLocal = (session: Session) =>
    options.localUser !== undefined && session.userId === options.localUser;
  const mayDecide = async (session: Session, record: RunRecord) =>
    waitsForApproval(record) &&
    (isLocal(session) || (await isApprover(config, session.userId, record.runbook, directory)));

  async function render(c: Context<ConsoleEnv>, record: RunRecord, notice?: string, status: 200 | 403 = 200) {
    const session = c.get('session');
    const threadLink = record.thread ? await chat.permalink?.(record.thread) : undefined;
    return c.html(
      RunPage({
        session,
        record,
        ...(record.report ? { summary: summarize(record.report) } : {}),
        ...(threadLink ? { threadLink } : {}),
        mayDecide: await mayDecide(session, record),
        ...(notice ? { notice } : {}),
      }),
      status,
    );
  }

  const recordOf = async (c: Context<ConsoleEnv>) => store.runs.get(c.req.param('runId') ?? '');
  const missing = (c: Context<ConsoleEnv>) =>
    c.text(`No run ${c.req.param('runId')} in the audit trail.`, 404);

  ui.get('/runs/:runId', async (c) => {
    const record = await recordOf(c);
    return record ? render(c, record) : missing(c);
  });

  ui.get('/runs/:runId/report.txt', async (c) => {
    const record = await recordOf(c);
    if (!record?.report) return missing(c);
    return c.body(fullReportText(record.report), 200, {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="${record.runbook}-${record.runId}.txt"`,
    });
  });

  ui.post('/runs/:runId/decision', fromConsoleForm, async (c) => {
    const session = c.get('session');
    const form = await c.req.parseBody();
    const decision = form.decision;
    if (decision !== 'approve' && decision !== 'reject')
      return c.text('decision: expected approve or reject', 400);
    const record = await recordOf(c);
    if (!record) return missing(c);
    const source = isLocal(session) ? 'cli' : 'slack-action';
    const receivedAt = responder.ports.now().toISOString();
    const trigger: Trigger = {
      source,
      receivedAt,
      deliveryKey: deliveryKey(source, ['console', record.runId, session.userId, receivedAt]),
      alerts: [],
      actor: { kind: 'user', id: session.userId, ...(session.name ? { name: session.name } : {}) },
      // The Slack message's buttons give way to the outcome, as after a click there.
      ...(record.thread ? { reply: { channel: record.thread.channel, threadTs: record.thread.ts } } : {}),
      approval: { runId: record.runId, decision, approved: decision === 'approve' ? record.plan : [] },
    };
    const answer = await answerApprovalClick(trigger, responder, { chat, runs: store.runs });
    const after = (await store.runs.get(record.runId)) ?? record;
    // Post/Redirect/Get: the run's page shows the decision from the store, and a reload posts nothing.
    if (!record.decision && after.decision?.by === session.userId)
      return c.redirect(runLink(record.runId), 303);
    // Refused (not an approver, expired, already decided): nothing changed, so nothing to re-post.
    return render(c, after, answer, 403);
  });
}
