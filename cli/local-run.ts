import { BUILT_IN_RUNBOOKS, type RunbookSet } from '../runbooks/team.ts';
import { type InProcessResult, runInProcess } from '../src/app/in-process.ts';
import type { ResponderConfig } from '../src/config/schema.ts';
import type { Report } from '../src/engine/types.ts';
import { exitCodeOf } from '../src/engine/verdict.ts';
import type { StateStore } from '../src/store/types.ts';
import type { Trigger } from '../src/triggers/types.ts';
import { type ClusterConnector, clusterConnector } from './cluster-connector.ts';
import {
  errorLines,
  formatRunOutput,
  type OutputFormat,
  type RunError,
  type RunOutput,
} from './format/output.ts';
import { progressLine } from './format/progress.ts';
import { localPorts } from './local-app.ts';
import { LOCAL_WORKER } from './state-lock.ts';

export interface LocalRunOutput extends RunOutput {
  exitCode: number;
}

/** What a job that ran no report came to, in one line a person can act on. */
function noReport(result: InProcessResult): RunError {
  if (result.error) {
    const { runbook, cluster } = result.job;
    return { runbook, cluster, message: `failed: ${result.error.message}` };
  }
  const { runId, runbook, cluster, status, error } = result.record;
  if (status === 'interrupted')
    return { runbook, cluster, message: `run ${runId} was interrupted: ${error}` };
  return { runbook, cluster, message: `${status}${error ? `: ${error}` : ''}` };
}

/**
 * A trigger from the terminal, through the same admission and worker as every other source,
 * with the reports printed as they come. Exit code: 0 healthy or remediated, 1 problems remain,
 * 2 a run failed or did not run.
 */
export async function runLocally(
  trigger: Trigger,
  config: ResponderConfig,
  store: StateStore,
  options: {
    output?: OutputFormat;
    clusters?: ClusterConnector;
    /** The runbooks the config can run (default: the built-in ones). */
    runbooks?: RunbookSet;
    summary?: boolean;
    /** How to print the reports (the demo's compact form); the output format's otherwise. */
    print?: (output: RunOutput) => string;
    /** Stops the run under way (Ctrl-C): it ends interrupted, and no further job starts. */
    signal?: AbortSignal;
  } = {},
): Promise<LocalRunOutput> {
  // A connector the caller passes outlives this run (the demo's one simulated cluster).
  const clusters = options.clusters ?? clusterConnector();
  const runbooks = options.runbooks ?? BUILT_IN_RUNBOOKS;
  const progress = progressLine(process.stderr);
  let run: Awaited<ReturnType<typeof runInProcess>>;
  try {
    run = await runInProcess(trigger, localPorts(config, store, undefined, runbooks), {
      runbooks: runbooks.runbooks,
      connect: (cluster) => clusters.connect(cluster),
      workerName: LOCAL_WORKER,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (job, step, done, total, label, endsAt) =>
        progress.update(`${job.runbook}/${step}`, done, total, label, endsAt),
    });
  } finally {
    progress.done();
    if (!options.clusters) await clusters.close();
  }
  const { dispatched, results } = run;
  const why = [...dispatched.refused, ...dispatched.skipped];
  if (results.length === 0) throw new Error(why.join('; ') || 'nothing to run');
  const reports: Report[] = [];
  const errors: RunError[] = [];
  let exitCode = 0;
  for (const result of results) {
    const report = result.error ? undefined : (result.report ?? result.record.report);
    if (!report) {
      errors.push(noReport(result));
      exitCode = 2;
      continue;
    }
    reports.push(report);
    exitCode = Math.max(exitCode, exitCodeOf(report.verdict));
  }
  process.stderr.write(errorLines(errors));
  const output = { reports, errors };
  process.stdout.write(
    options.print
      ? options.print(output)
      : await formatRunOutput(output, options.output ?? 'table', options.summary !== false),
  );
  return { ...output, exitCode };
}
