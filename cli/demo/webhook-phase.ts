import { randomBytes } from 'node:crypto';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { table } from '../format/report.ts';
import { projectFile } from '../project-file.ts';
import { startLocalServer } from '../serve/local-server.ts';
import { alertmanagerNotification, INCIDENT_ALERTS } from './alerts.ts';

const EXAMPLE_CONFIG = projectFile('responder.config.example.yaml');

/**
 * The event path end to end: the local server (same app as the Lambda) receives Alertmanager
 * notifications for the four incidents, admits them, and the in-process queue's worker runs them;
 * reports go to the console sink. A repeated notification shows dedupe.
 */
export async function webhookPhase(out: NodeJS.WritableStream): Promise<RunRecord[]> {
  const config = await loadConfig(EXAMPLE_CONFIG, { runbooks: RUNBOOK_IDS });
  const token = randomBytes(18).toString('base64url');
  const server = await startLocalServer({
    config,
    chat: consoleSink(out),
    secrets: { alertmanagerToken: token },
  });
  try {
    out.write(`local responder at ${server.url} (example config); posting Alertmanager notifications:\n`);
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
      const queued = body.queued.map((job) => `${job.runbook} (${job.mode})`).join(', ') || 'nothing';
      out.write(`  ${alertname} -> ${status}: queued ${queued}\n`);
    }
    const first = INCIDENT_ALERTS[0];
    const again = await post(alertmanagerNotification(first.alertname, first.summary, cluster, now));
    out.write(
      `  ${first.alertname} again (an Alertmanager retry) -> ${again.status}: ${again.body.duplicates} duplicate, nothing queued\n\n`,
    );
    await server.queue.idle();
    return await server.app.history({ cluster });
  } finally {
    await server.close();
  }
}

/** The audit trail as `responder history` prints it. */
export function historyTable(runs: readonly RunRecord[]): string {
  const rows = runs.map((r) => [
    r.runbook,
    r.mode,
    `${r.source}:${r.actor}`,
    r.verdict ?? r.status,
    r.reason,
  ]);
  return table([['RUNBOOK', 'MODE', 'BY', 'RESULT', 'WHY'], ...rows]).join('\n');
}
