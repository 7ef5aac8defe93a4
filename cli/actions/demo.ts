import type { Mode, Report } from '../../src/engine/types.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { clusterConnector } from '../cluster-connector.ts';
import { historyTable, webhookPhase } from '../demo/webhook-phase.ts';
import { formatSummary } from '../format/report.ts';
import { localUser, withCluster } from '../local-app.ts';
import { runLocally } from '../local-run.ts';

const MODES: readonly Mode[] = ['dry-run', 'auto'];

/** The command's work, loaded only when it runs. */
export async function demoAction(setExitCode: (code: number) => void) {
  // The simulated agents drop probes at once: a short drop watch sees them (15 s on a real cluster).
  const config = withCluster(undefined, {
    name: 'sim',
    sim: { scenarios: ['all'] },
    params: { 'host-identity': { monitorSeconds: 2 } },
  });
  // One simulated cluster for both passes, so auto acts on what dry-run planned.
  const clusters = clusterConnector();
  const store = memoryStore();
  const reports: Report[] = [];
  try {
    for (const mode of MODES) {
      process.stdout.write(
        `\n=== ${mode}: ${mode === 'dry-run' ? 'what would be done' : 'acting within limits'} ===\n\n`,
      );
      const trigger: Trigger = {
        source: 'cli',
        receivedAt: new Date().toISOString(),
        deliveryKey: `demo:${mode}`,
        alerts: [],
        cluster: 'sim',
        runbook: 'all',
        mode,
        actor: localUser(),
      };
      reports.push(...(await runLocally(trigger, config, store, { clusters, summary: false })).reports);
    }
  } finally {
    await clusters.close();
  }
  process.stdout.write('\n=== alerts: Alertmanager webhooks through the local server and queue ===\n\n');
  const runs = await webhookPhase(process.stdout);
  process.stdout.write(
    [
      '=== summary ===',
      formatSummary(reports),
      '',
      'Runs started by the alerts (responder history):',
      historyTable(runs),
      '',
      'Explore the same cluster yourself: npx responder sim --scenario all --kubeconfig sim.kubeconfig',
      'Run one runbook: npx responder run unmanaged-pods --sim unmanaged-pods --mode auto',
      '',
    ].join('\n'),
  );
  // The demo succeeds when every run ran; problems left in the simulated cluster are the point.
  setExitCode(
    reports.some((r) => r.verdict === 'failed') || runs.some((r) => r.verdict === 'failed') ? 2 : 0,
  );
}
