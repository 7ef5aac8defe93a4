import { createHmac, randomBytes } from 'node:crypto';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import type { ClusterPorts } from '../../src/app/ports.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { ResponderConfig } from '../../src/config/schema.ts';
import { reportBlocks } from '../../src/slack/blocks.ts';
import type { RunRecord } from '../../src/store/types.ts';
import type { ProgressLine } from '../format/progress.ts';
import { projectFile } from '../project-file.ts';
import { type LocalServer, startLocalServer } from '../serve/local-server.ts';
import { alertmanagerNotification, INCIDENT_ALERTS } from './alerts.ts';
import { clip, outcomeReason, type SummaryRow } from './compact.ts';
import { slackScreen } from './slack-screen.ts';

const EXAMPLE_CONFIG = projectFile('responder.config.example.yaml');
/** The example config's approver (approvers."*"), who clicks Approve in the demo. */
const APPROVER = { id: 'U012AB3CD', username: 'alice' };
/** The thread whose messages the demo shows in full: the one that waits for a person. */
const FOCUS = /· \S+\/host-identity ·/;

export interface WebhookPhaseOptions {
  /** The demo's cluster connection, so the alerts' runs act on the cluster the first phases saw. */
  connect: ClusterPorts['connect'];
  progress: ProgressLine;
  /** The demo's own settings on top of the example config (short waits, the restart cap). */
  adjust: (config: ResponderConfig) => ResponderConfig;
  /** Called between the alerts and the approval: the demo prints its next phase's heading. */
  beforeApproval: () => void;
}

/** Slack's v0 signature, as Slack signs each interactivity request. */
function slackSigned(secret: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': `v0=${digest}`,
  };
}

/** Waits for the queue to run everything, with the worker's progress on the progress line. */
async function drain(server: LocalServer, progress: ProgressLine): Promise<void> {
  await server.queue.idle();
  progress.done();
}

/**
 * The event path end to end: the local server (same app as the Lambda) receives Alertmanager
 * notifications for the four incidents, admits them, and the in-process queue's worker runs them;
 * reports go to the console sink, which prints them as the Slack messages would read. A repeated
 * notification shows dedupe. Then a person clicks Approve on the plan that waits: a signed Slack
 * interaction to the same server, which resumes the run with exactly that plan.
 */
export async function webhookPhase(
  out: NodeJS.WriteStream,
  options: WebhookPhaseOptions,
): Promise<RunRecord[]> {
  const config = options.adjust(await loadConfig(EXAMPLE_CONFIG, { runbooks: RUNBOOK_IDS }));
  const token = randomBytes(18).toString('base64url');
  const signingSecret = randomBytes(18).toString('hex');
  const progress = options.progress;
  const server = await startLocalServer({
    config,
    chat: consoleSink(
      slackScreen(
        out,
        (header) => FOCUS.test(header),
        () => progress.done(),
      ),
    ),
    secrets: { alertmanagerToken: token, slackSigningSecret: signingSecret },
    connect: options.connect,
    onProgress: (job, step, done, total, label, endsAt) =>
      progress.update(`queue: ${job.runbook}/${step}`, done, total, label, endsAt),
  });
  try {
    out.write(`local responder at ${server.url} (example config); Alertmanager posts:\n`);
    const post = async (body: unknown) => {
      const response = await fetch(`${server.url}/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as { queued: { runbook: string; mode: string }[]; duplicates: number },
      };
    };
    const now = new Date();
    const cluster = config.clusters[0]?.name ?? 'sim';
    for (const { alertname, summary } of INCIDENT_ALERTS) {
      const { status, body } = await post(alertmanagerNotification(alertname, summary, cluster, now));
      const jobs = body.queued.map((job) => `${job.runbook} (${job.mode})`).join(', ') || 'nothing';
      out.write(`  ${alertname} -> ${status}: queued ${jobs}\n`);
    }
    const first = INCIDENT_ALERTS[0];
    const again = await post(alertmanagerNotification(first.alertname, first.summary, cluster, now));
    out.write(
      `  ${first.alertname} again (an Alertmanager retry) -> ${again.status}: ${again.body.duplicates} duplicate, nothing queued\n`,
    );
    out.write(`Slack (console sink; the host-identity thread in full):\n`);
    await drain(server, progress);

    options.beforeApproval();
    const waiting = (await server.app.history({ cluster })).runs.find((r) => r.verdict === 'needs-approval');
    if (waiting?.report) {
      // The buttons of the message Slack shows: the demo clicks the one a person would.
      const button = reportBlocks(waiting.report)
        .blocks.flatMap((block) => (block.type === 'actions' ? block.elements : []))
        .find((element) => element.action_id === 'approve');
      if (!button)
        throw new Error(`run ${waiting.runId} waits for approval but its message has no Approve button`);
      const payload = {
        type: 'block_actions',
        user: APPROVER,
        channel: { id: 'C0CILIUM' },
        container: { channel_id: 'C0CILIUM', message_ts: '1700000000.000100' },
        message: { ts: '1700000000.000100' },
        actions: [{ action_id: 'approve', value: button.value, action_ts: String(Date.now() / 1000) }],
      };
      const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      out.write(`<@${APPROVER.id}> clicks "${button.text.text}" on run ${waiting.runId.slice(0, 8)}…\n`);
      const response = await fetch(`${server.url}/slack/interactions`, {
        method: 'POST',
        headers: slackSigned(signingSecret, body),
        body,
      });
      const answer = (await response.json()) as { text?: string };
      out.write(`${clip(`  POST /slack/interactions -> ${response.status}: ${answer.text ?? ''}`)}\n`);
      await drain(server, progress);
    }
    return (await server.app.history({ cluster })).runs;
  } finally {
    await server.close();
  }
}

/** A run of the audit trail as a summary row. */
export function rowOfRecord(record: RunRecord): SummaryRow {
  return {
    runbook: record.runbook,
    mode: record.mode,
    from: record.source,
    result: record.verdict ?? record.status,
    why: record.report ? outcomeReason(record.report) : (record.error ?? record.reason),
  };
}
