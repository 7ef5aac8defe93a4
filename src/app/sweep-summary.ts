import type { ResponderConfig } from '../config/schema.ts';
import type { Job } from '../queue/job.ts';
import { summarize as summarizeRun } from '../report/summary.ts';
import type { RunRecord } from '../store/types.ts';
import type { AppPorts } from './ports.ts';

const FINISHED: ReadonlySet<RunRecord['status']> = new Set(['done', 'failed', 'interrupted', 'duplicate']);

/** What a sweep found on one cluster, against the sweep of the same schedule before it. */
export interface SweepSummary {
  schedule: string;
  cluster: string;
  lines: string[];
  /** Per line, the runbook whose thread has something to show (found or fixed), if any. */
  threads: (string | undefined)[];
  /** Nothing new and nothing open. */
  clean: boolean;
}

const fingerprints = (record: RunRecord | undefined) =>
  new Set(record?.report ? summarizeRun(record.report).open.map((f) => `${f.code} ${f.target}`) : []);

/** One line per runbook: its verdict, and its findings new, still open and fixed since last time. */
export function summarize(
  schedule: string,
  cluster: string,
  runs: readonly RunRecord[],
  previous: readonly RunRecord[],
): SweepSummary {
  let clean = true;
  const threads: (string | undefined)[] = [];
  const lines = [...runs]
    .sort((a, b) => a.runbook.localeCompare(b.runbook))
    .map((run) => {
      const before = fingerprints(previous.find((p) => p.runbook === run.runbook));
      const now = fingerprints(run);
      const fresh = [...now].filter((f) => !before.has(f)).length;
      const fixed = [...before].filter((f) => !now.has(f)).length;
      const open = now.size - fresh;
      if (now.size > 0 || run.status !== 'done') clean = false;
      const verdict = run.verdict ?? run.status;
      const counts =
        now.size + fixed === 0 ? 'nothing found' : `${fresh} new, ${open} still open, ${fixed} fixed`;
      threads.push(now.size + fixed === 0 ? undefined : run.runbook);
      return `• ${run.runbook}: ${verdict} (${counts})${run.error ? `: ${run.error}` : ''}`;
    });
  return { schedule, cluster, lines, threads, clean };
}

/**
 * A sweep posts one message per cluster, once every runbook of it has finished: whichever sweep
 * job finishes last (on any worker) writes it, exactly once.
 */
export async function summarizeSweepIfDone(job: Job, ports: Omit<AppPorts, 'queue'>): Promise<void> {
  const schedule = job.trigger.schedule?.name;
  if (job.trigger.source !== 'schedule' || !schedule) return;
  const { store } = ports;
  const recent = await store.runs.list({ cluster: job.cluster, limit: 200 });
  const ofSweep = (record: RunRecord) =>
    record.source === 'schedule' && record.reason === `schedule ${schedule}`;
  const runs = recent.filter((r) => ofSweep(r) && r.deliveryKey === job.trigger.deliveryKey);
  if (runs.length === 0 || !runs.every((r) => FINISHED.has(r.status))) return;
  const claimed = await store.dedupe.claim(
    `sweep-summary|${job.trigger.deliveryKey}|${job.cluster}`,
    24 * 3600,
    ports.now(),
  );
  if (!claimed) return;
  const previous = recent.filter((r) => ofSweep(r) && r.deliveryKey !== job.trigger.deliveryKey);
  const lastKey = previous[0]?.deliveryKey;
  const summary = summarize(
    schedule,
    job.cluster,
    runs,
    previous.filter((r) => r.deliveryKey === lastKey),
  );
  const whenClean = findSchedule(ports.config, schedule)?.whenClean ?? 'line';
  if (summary.clean && whenClean === 'silent') return;
  const channel = ports.config.clusters.find((c) => c.name === job.cluster)?.channel ?? ports.defaultChannel;
  const lines = await withThreadLinks(summary, ports);
  const text = summary.clean
    ? `Sweep ${schedule} on ${job.cluster}: all clear (${runs.length} runbooks, nothing open).`
    : [`Sweep ${schedule} on ${job.cluster}:`, ...lines].join('\n');
  await ports.chat.postText({ channel, threadKey: `${job.cluster}/sweep/${schedule}` }, text);
}

/** Each runbook line with a link to its problem's thread, where chat has one. */
async function withThreadLinks(summary: SweepSummary, ports: Pick<AppPorts, 'chat'>): Promise<string[]> {
  return Promise.all(
    summary.lines.map(async (line, index) => {
      const runbook = summary.threads[index];
      const link = runbook ? await ports.chat.threadLink?.(`${summary.cluster}/${runbook}`) : undefined;
      return link ? `${line} <${link}|thread>` : line;
    }),
  );
}

const findSchedule = (config: ResponderConfig, name: string) => config.schedules.find((s) => s.name === name);
