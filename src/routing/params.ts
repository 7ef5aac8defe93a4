import type { RunbookInfo } from '../engine/types.ts';
import { checkParams, ParamsError } from '../params/check.ts';
import type { Job } from '../queue/job.ts';

const keysOf = (info: RunbookInfo) => Object.keys(info.params.shape);

function infoOf(catalog: readonly RunbookInfo[], runbook: string): RunbookInfo {
  const info = catalog.find((entry) => entry.id === runbook);
  // Routing makes jobs for known runbooks only; a catalog without one is a wiring bug.
  if (!info) throw new Error(`runbook ${runbook} is not in the runbook catalog`);
  return info;
}

/** A job of `run all key=value`: the person's params were meant for whichever runbooks take them. */
const ofAll = (job: Job) => job.trigger.runbook === 'all' && !job.resume;

/** The job without the person's keys its runbook does not take. */
function narrowed(job: Job, info: RunbookInfo): Job {
  const foreign = Object.keys(job.trigger.params ?? {}).filter((key) => !keysOf(info).includes(key));
  return {
    ...job,
    params: Object.fromEntries(Object.entries(job.params).filter(([k]) => !foreign.includes(k))),
  };
}

/**
 * The routed jobs, their params read from text and checked by each runbook's own schema (so the
 * job, its audit record and the plan carry numbers and lists, whoever typed them), or a ParamsError naming the
 * first bad key and the valid ones: a typo is answered at once (ephemeral in Slack, 400 on HTTP,
 * exit 2 in the CLI) and nothing is queued, rather than failing in the worker until dead-lettered.
 * `run all key=value` gives each runbook the keys it takes; a key none of them takes is an error.
 */
export function withCheckedParams(jobs: readonly Job[], catalog: readonly RunbookInfo[]): Job[] {
  const checked = jobs.map((job) => (ofAll(job) ? narrowed(job, infoOf(catalog, job.runbook)) : job));
  const all = jobs.filter(ofAll);
  const taken = new Set(all.flatMap((job) => keysOf(infoOf(catalog, job.runbook))));
  const unknown = Object.keys(all[0]?.trigger.params ?? {}).find((key) => !taken.has(key));
  if (unknown)
    throw new ParamsError(
      unknown,
      `unknown key (no runbook takes it; ${taken.size > 0 ? `valid keys: ${[...taken].join(', ')}` : 'they take no parameters'})`,
    );
  return checked.map((job) => ({
    ...job,
    params: checkParams(job.runbook, infoOf(catalog, job.runbook).params, job.params),
  }));
}
