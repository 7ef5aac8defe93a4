import type { Mode } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import type { PairState, RunRecord, StateStore } from '../store/types.ts';
import type { Alert, Trigger } from '../triggers/types.ts';

const AUTOMATIC: ReadonlySet<Trigger['source']> = new Set(['alertmanager', 'cloudwatch', 'schedule']);

/**
 * The pair an automatic job belongs to: its (cluster, runbook) in its mode. People's requests and
 * approvals are never folded into another run.
 */
export function pairKey(job: Job): string | undefined {
  if (job.resume) return undefined;
  return pairKeyOf({ ...job, source: job.trigger.source });
}

/** The same pair, from what an audit record keeps (a run left behind gives its pair back). */
export function pairKeyOf(
  run: Pick<RunRecord, 'source' | 'cluster' | 'runbook' | 'mode'>,
): string | undefined {
  if (!AUTOMATIC.has(run.source)) return undefined;
  return keyOf(run.cluster, run.runbook, run.mode);
}

const keyOf = (cluster: string, runbook: string, mode: Mode) => `${cluster}|${runbook}|${mode}`;

const MODES: readonly Mode[] = ['auto', 'dry-run', 'approve'];

/**
 * The job whose automatic run holds (cluster, runbook) in any mode, queued or running (a person
 * asking for that runbook learns of it before the worker would find the pair busy); undefined
 * when none does.
 */
export async function pairHolder(
  cluster: string,
  runbook: string,
  context: Pick<PairContext, 'store' | 'now'>,
): Promise<string | undefined> {
  for (const mode of MODES) {
    const owner = (await context.store.pairs.get(keyOf(cluster, runbook, mode), context.now()))?.owner;
    if (owner) return owner;
  }
  return undefined;
}

/** The follow-up of a run is a job of its own, named after it: a finisher that queues it twice queues one job. */
export const followUpId = (after: string) => `${after}-follow-up`;

/** Alerts a follow-up lists by name (the rest are counted): a storm's item and message stay small. */
export const LISTED_ALERTS = 50;

/** Rounds of read, decide, conditional write before a pair that keeps changing is given up on. */
const ROUNDS = 60;

export interface PairContext {
  store: StateStore;
  now: () => Date;
  /** The dedupe window: how long a pair's state lives after its last change. */
  windowSeconds: number;
}

/**
 * What an automatic job coming for its pair does:
 * - `run`: nobody holds the pair; this job runs and holds it until its run ends. Also when the
 *   pair's first run already ended in this window: this job is then its follow-up, run at once.
 * - `absorbed`: a run holds the pair, queued or running: the job's alerts wait for the one
 *   follow-up its end queues.
 * - `duplicate`: the pair had its follow-up in this window: nothing more until the window ends.
 */
export type PairAdmission = 'run' | 'absorbed' | 'duplicate';

/** What was decided, and the state to write (none: nothing changes). `{}`: nothing to say, nothing to write. */
type Decision<T> = { state?: PairState } & (undefined extends T ? { result?: T } : { result: T });

/** Reads the pair, decides, and writes what was decided under the version read, until it lands. */
async function change<T>(
  key: string,
  context: PairContext,
  decide: (seen: PairState | undefined) => Decision<T>,
): Promise<T> {
  for (let round = 0; round < ROUNDS; round++) {
    const now = context.now();
    const decision = decide(await context.store.pairs.get(key, now));
    if (!decision.state) return decision.result as T;
    if (await context.store.pairs.put(key, decision.state, context.windowSeconds, now))
      return decision.result as T;
  }
  throw new Error(`the runs of ${key} kept changing under ${ROUNDS} attempts; try again`);
}

export function admitToPair(job: Job, key: string, context: PairContext): Promise<PairAdmission> {
  return change(key, context, (seen): Decision<PairAdmission> => {
    if (!seen) return { result: 'run', state: { owner: job.id, followedUp: false, version: 1 } };
    if (seen.followedUp) return { result: 'duplicate' };
    const version = seen.version + 1;
    if (!seen.owner) return { result: 'run', state: { owner: job.id, followedUp: true, version } };
    return { result: 'absorbed', state: { ...seen, absorbed: absorb(seen.absorbed, job), version } };
  });
}

/** A job's alerts added to what the pair absorbed: one per fingerprint, at most LISTED_ALERTS listed. */
function absorb(absorbed: PairState['absorbed'], job: Job): NonNullable<PairState['absorbed']> {
  const alerts = new Map((absorbed?.alerts as Alert[] | undefined)?.map((a) => [a.fingerprint, a]));
  for (const alert of job.trigger.alerts)
    if (alerts.size < LISTED_ALERTS || alerts.has(alert.fingerprint)) alerts.set(alert.fingerprint, alert);
  return {
    job: { ...job, trigger: { ...job.trigger, alerts: [] } },
    alerts: [...alerts.values()],
    notifications: (absorbed?.notifications ?? 0) + 1,
  };
}

/** The one run after `after` for what its pair absorbed: the latest absorbed job, listing every absorbed alert. */
function followUpOf(absorbed: NonNullable<PairState['absorbed']>, after: string, now: Date): Job {
  const template = absorbed.job as Job;
  return {
    ...template,
    id: followUpId(after),
    trigger: {
      ...template.trigger,
      receivedAt: now.toISOString(),
      deliveryKey: `follow-up:${after}`,
      alerts: absorbed.alerts as Alert[],
      followUp: { after, notifications: absorbed.notifications },
    },
    dedupeKey: `follow-up|${after}`,
  };
}

/**
 * The run of job `jobId` ended (done, interrupted, a duplicate, given up): its pair goes to the
 * follow-up when alerts came meanwhile (returned, to be recorded and queued), else rests until
 * its window ends. Asked again for the same job (a redelivery after the finisher died before
 * queueing it), it returns the same follow-up; for a job that no longer holds the pair, nothing.
 */
export function finishPair(jobId: string, key: string, context: PairContext): Promise<Job | undefined> {
  return change(key, context, (seen): Decision<Job | undefined> => {
    // Not (or no longer) its holder: the follow-up it handed over, asked again, while that is queued or running.
    if (seen?.owner !== jobId) {
      const next = seen?.next as Job | undefined;
      return next?.id === followUpId(jobId) ? { result: next } : {};
    }
    const version = seen.version + 1;
    if (!seen.absorbed || seen.followedUp) return { state: { followedUp: seen.followedUp, version } };
    const next = followUpOf(seen.absorbed, jobId, context.now());
    return { result: next, state: { owner: next.id, followedUp: true, next, version } };
  });
}

/**
 * Gives the pair back from a job that could not be queued, as if it never came: the sender's
 * retry runs (alerts absorbed meanwhile are re-sent by their senders as their groups change).
 */
export function releasePair(jobId: string, key: string, context: PairContext): Promise<void> {
  return change(key, context, (seen): Decision<void> => {
    if (seen?.owner !== jobId) return {};
    return { state: { followedUp: false, version: seen.version + 1 } };
  });
}
