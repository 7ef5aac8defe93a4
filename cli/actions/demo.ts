import type { ResponderConfig } from '../../src/config/schema.ts';
import type { Mode, Report } from '../../src/engine/types.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { clusterConnector } from '../cluster-connector.ts';
import { compactReports, rowOfReport, summaryTable, WIDTH } from '../demo/compact.ts';
import { mergePatch } from '../demo/merge-patch.ts';
import { rowOfRecord, webhookPhase } from '../demo/webhook-phase.ts';
import { progressLine } from '../format/progress.ts';
import { localUser, withCluster } from '../local-app.ts';
import { runLocally } from '../local-run.ts';

const MODES: readonly Mode[] = ['dry-run', 'auto'];

/**
 * The demo's waits, cut with the params meant for that: the simulated agents print their drops at
 * once, so a 2 s drop watch sees them (15 s on a real cluster), and a restarted simulated agent is
 * Ready within a poll.
 */
const HOST_IDENTITY_PARAMS = { monitorSeconds: 2, verifyTimeoutSeconds: 10 };
/** The simulated cluster's nodes: the approval phase restarts every agent without the rule in one run. */
const SIM_NODES = 4;

function heading(title: string): string {
  const bar = '='.repeat(Math.max(3, WIDTH - title.length - 5));
  return `\n=== ${title} ${bar}\n`;
}

/** What the dry-run told a person to do, done as they would: the config, not the agents. */
async function enableIptablesRules(kubeconfig: string): Promise<void> {
  await mergePatch(kubeconfig, '/api/v1/namespaces/kube-system/configmaps/cilium-config', {
    data: { 'install-iptables-rules': 'true' },
  });
}

/** The example config, with the demo's short waits and its restart cap. */
function demoSettings(config: ResponderConfig): ResponderConfig {
  return {
    ...config,
    clusters: config.clusters.map((cluster) => ({
      ...cluster,
      params: { ...cluster.params, 'host-identity': HOST_IDENTITY_PARAMS },
    })),
    limits: { ...config.limits, maxAgentRestartsPerRun: SIM_NODES },
  };
}

/** The command's work, loaded only when it runs. */
export async function demoAction(setExitCode: (code: number) => void) {
  const started = performance.now();
  const out = process.stdout;
  const config = withCluster(undefined, {
    name: 'sim',
    sim: { scenarios: ['all'] },
    params: { 'host-identity': HOST_IDENTITY_PARAMS },
  });
  // One simulated cluster for every phase, so each acts on what the one before saw and did.
  // Every agent Ready: what the responder leaves alone is then a choice it explains, not a broken node.
  const clusters = clusterConnector({ scenario: { agentNotReadyNodes: 0 } });
  const store = memoryStore();
  const progress = progressLine(process.stderr);
  const reports: Report[] = [];
  let runs: Awaited<ReturnType<typeof webhookPhase>> = [];
  try {
    for (const mode of MODES) {
      out.write(
        heading(
          mode === 'dry-run'
            ? 'dry-run: all four incidents on one cluster; what it would do, what it leaves and why'
            : 'auto: acting within limits; the rest stays open, with the reason',
        ),
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
      const run = await runLocally(trigger, config, store, {
        clusters,
        print: ({ reports }) => compactReports(reports),
      });
      reports.push(...run.reports);
    }
    const kubeconfig = clusters.simKubeconfig('sim');
    if (!kubeconfig) throw new Error('the demo cluster is not running');
    await enableIptablesRules(kubeconfig);
    out.write(
      [
        '',
        'A person does what host-identity asked, install-iptables-rules "true" (agents not restarted):',
        '  kubectl -n kube-system patch configmap cilium-config --type merge \\',
        `    -p '{"data":{"install-iptables-rules":"true"}}'`,
        '',
      ].join('\n'),
    );
    out.write(heading('alerts: Alertmanager -> local server -> queue -> worker -> Slack'));
    runs = await webhookPhase(out, {
      connect: (cluster) => clusters.connect(cluster),
      progress,
      adjust: demoSettings,
      beforeApproval: () => out.write(heading('approval: a person clicks Approve in Slack; the run resumes')),
    });
  } finally {
    progress.done();
    await clusters.close();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  out.write(
    [
      heading('summary: every run, what it came to and why'),
      summaryTable([...reports.map((r) => rowOfReport(r, 'cli')), ...[...runs].reverse().map(rowOfRecord)]),
      '',
      'Explore the same cluster yourself: npx responder sim --scenario all --kubeconfig sim.kubeconfig',
      'Run one runbook: npx responder run unmanaged-pods --sim unmanaged-pods --mode auto',
      `Demo finished in ${seconds} s.`,
      '',
    ].join('\n'),
  );
  // The demo succeeds when every run ran; problems left in the simulated cluster are the point.
  setExitCode(
    reports.some((r) => r.verdict === 'failed') || runs.some((r) => r.verdict === 'failed') ? 2 : 0,
  );
}
