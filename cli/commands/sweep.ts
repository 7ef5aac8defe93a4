import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import { RUNBOOKS, runbookById } from '../../runbooks/index.ts';
import { loadConfig } from '../../src/config/load.ts';
import { runRunbook } from '../../src/engine/run.ts';
import type { Report } from '../../src/engine/types.ts';
import { exitCodeOf } from '../../src/engine/verdict.ts';
import { routeTrigger } from '../../src/routing/route.ts';
import { clusterConnector } from '../cluster-connector.ts';
import { formatReport, formatSummary } from '../format/report.ts';

/** `responder sweep`: a configured schedule's compliance sweep, run now, in this process. */
export function sweepCommand(setExitCode: (code: number) => void): Command {
  return new Command('sweep')
    .description("run a schedule's sweep now: its runbooks on its clusters, in its mode")
    .argument('<schedule>', 'a schedule name from the config')
    .option('--config <file>', 'the responder config', 'responder.config.yaml')
    .action(async (schedule: string, options: { config: string }) => {
      const runbooks = RUNBOOKS.map((r) => r.id);
      const config = await loadConfig(options.config, { runbooks });
      const routed = routeTrigger(
        {
          source: 'schedule',
          receivedAt: new Date().toISOString(),
          deliveryKey: `cli:${schedule}`,
          alerts: [],
          actor: { kind: 'user', id: 'cli' },
          schedule: { name: schedule },
        },
        { config, runbooks, newId: randomUUID },
      );
      if (routed.jobs.length === 0)
        throw new Error(routed.skipped.join('; ') || `schedule ${schedule} runs nothing`);
      const clusters = clusterConnector();
      const reports: Report[] = [];
      try {
        for (const job of routed.jobs) {
          const cluster = config.clusters.find((c) => c.name === job.cluster);
          if (!cluster) continue;
          const access = await clusters.connect(cluster);
          const report = await runRunbook({
            runbook: runbookById(job.runbook),
            access,
            mode: job.mode,
            limits: config.limits,
          });
          reports.push(report);
          process.stdout.write(`${formatReport(report)}\n`);
        }
      } finally {
        await clusters.close();
      }
      process.stdout.write(`${formatSummary(reports)}\n`);
      setExitCode(Math.max(...reports.map((r) => exitCodeOf(r.verdict))));
    });
}
