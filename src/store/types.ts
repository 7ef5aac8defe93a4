import type { Mode, Report, Verdict } from '../engine/types.ts';
import type { Actor, Alert, CloudWatchAlarm, TriggerSource } from '../triggers/types.ts';

/**
 * The state the event plane keeps: dedupe keys, leases, the brake, and the audit record of every
 * run. One port, two adapters (DynamoDB in AWS, memory locally); clocks are passed in.
 */

export interface DedupeStore {
  /** Claims `key` for `ttlSeconds`; true for the first claim, false while an earlier one lives. */
  claim(key: string, ttlSeconds: number, now: Date): Promise<boolean>;
  /** Gives a claim back, when what it guarded could not be done (the queue was down): a retry may run. */
  release(key: string): Promise<void>;
}

export interface LeaseStore {
  /** Takes the lease on `key` for `owner` unless another owner holds an unexpired one. */
  acquire(key: string, owner: string, ttlSeconds: number, now: Date): Promise<boolean>;
  /** Gives the lease back, only if `owner` still holds it. */
  release(key: string, owner: string): Promise<void>;
  /** Who holds an unexpired lease on `key`, and until when (ISO time); undefined when nobody does. */
  holder(key: string, now: Date): Promise<{ owner: string; expiresAt: string } | undefined>;
  /**
   * Gives the lease from `from` to `to` for `ttlSeconds`, only while `from` holds it unexpired: a
   * run continuing in the next invocation hands it on, so no other run takes it in between.
   */
  handOver(key: string, from: string, to: string, ttlSeconds: number, now: Date): Promise<boolean>;
}

/**
 * Where a run that continues in the next invocation keeps what it did (see src/engine/checkpoint.ts),
 * under an id of its own per invocation, so a continuation reads exactly the one it was sent for.
 */
export interface CheckpointStore {
  /** Keeps `checkpoint` (JSON-serializable) for `ttlSeconds`; saved again under the same id, it is replaced. */
  save(runId: string, id: string, checkpoint: unknown, ttlSeconds: number, now: Date): Promise<void>;
  /** The checkpoint as saved; undefined when none was, or it expired. */
  load(runId: string, id: string, now: Date): Promise<unknown>;
}

export interface BrakeState {
  cluster: string;
  /** Writes that count now: those of the last window. */
  used: number;
  limit: number;
  /** When the oldest counted write stops counting (when writes may go again, if engaged). */
  windowEndsAt: string;
  engaged: boolean;
}

export interface BrakeStore {
  /**
   * Counts one cluster write for the next `windowSeconds` and returns its ticket; undefined (and
   * counts nothing) while `limit` writes already count.
   */
  take(cluster: string, limit: number, windowSeconds: number, now: Date): Promise<string | undefined>;
  /** Gives a write back that did not happen after all (refused by the cluster, gone, failed). */
  refund(cluster: string, ticket: string): Promise<void>;
  state(cluster: string, limit: number, windowSeconds: number, now: Date): Promise<BrakeState>;
  /** A person's reset: writes may go again at once. */
  reset(cluster: string): Promise<void>;
}

/**
 * `interrupted`: a worker stopped during the run (a crash, a timeout); writes may have happened, so
 * the job is reported, never silently run again.
 */
export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'resolved' | 'duplicate' | 'interrupted';

/** A person's answer to a plan waiting for approval. */
export interface ApprovalDecisionRecord {
  outcome: 'approved' | 'rejected';
  /** Slack user id, and name when Slack gave one. */
  by: string;
  byName?: string;
  at: string;
  /** The `<action>:<target>` keys approved. */
  approved?: string[];
}

/** What started a run, as its record keeps it: bounded, so a group of thousands of alerts still fits. */
export interface RunTrigger {
  receivedAt: string;
  actor: Actor;
  /** The first alerts of the group (labels and annotations as sent: untrusted text). */
  alerts: Alert[];
  /** How many alerts the group had. */
  alertCount: number;
  alarm?: CloudWatchAlarm;
  schedule?: { name: string };
}

/** The Slack message a run's report went to (its thread's head). */
export interface PostedMessage {
  channel: string;
  ts: string;
}

/** The audit record of a run: who or what asked, what was planned and done, the verdict, the timings. */
export interface RunRecord {
  runId: string;
  jobId: string;
  cluster: string;
  runbook: string;
  mode: Mode;
  source: TriggerSource;
  actor: string;
  /** Alert names (or the command) that started it. */
  reason: string;
  /** The delivery that started it: the runs of one sweep (or one alert group) share it. */
  deliveryKey?: string;
  /** The runbook parameters the run was asked with; an approved resume runs with the same. */
  params: Record<string, unknown>;
  /** Who set each param (see Job.paramsBy): what an approver sees beside the plan. */
  paramsBy?: Record<string, string>;
  status: RunStatus;
  verdict?: Verdict;
  /** Planned writes as `<action>:<target>` keys (what an approval names), and `<action> <target>: <outcome>` done. */
  plan: string[];
  actions: string[];
  error?: string;
  decision?: ApprovalDecisionRecord;
  /** True once the report reached chat; a delivery that finds a finished run not posted only posts. */
  posted?: boolean;
  /** Where it was posted, when the chat said (Slack): the console links to it. */
  thread?: PostedMessage;
  /** What started it. */
  trigger?: RunTrigger;
  /**
   * The delivery running it (its lease owner), set when it starts: only that delivery moves the
   * record on, so a redelivery or a late worker never overwrites it.
   */
  owner?: string;
  queuedAt: string;
  startedAt?: string;
  finishedAt?: string;
  report?: Report;
  /** From the whole report (before compaction): the diagnosis and the counts every reader shows. */
  summary?: { diagnosis: string; found: number; fixed: number; open: number };
}

/** What a conditional write of a run record expects the stored record to be. */
export interface RunExpectation {
  status: readonly RunStatus[];
  /** The job whose record it is (a resume takes over the record of the run it resumes). */
  jobId?: string;
  /** The delivery running it. */
  owner?: string;
}

export interface RunStore {
  /** A new record (admission), or one whose writer is the only one (tests, imports). */
  put(record: RunRecord): Promise<void>;
  /** Puts a record only if none has its id (a follow-up queued again by a redelivered finisher): false if one has. */
  create(record: RunRecord): Promise<boolean>;
  /**
   * Replaces the record only while the stored one is as `expected` (DynamoDB: a condition
   * expression): true when written, false when another writer moved it on first. The audit
   * record only moves forward this way: a redelivery never overwrites a running or finished run.
   */
  advance(record: RunRecord, expected: RunExpectation): Promise<boolean>;
  get(runId: string): Promise<RunRecord | undefined>;
  /** Newest first; every run when `limit` is absent. */
  list(options?: { cluster?: string; limit?: number }): Promise<RunRecord[]>;
  /** One page of the audit trail, newest first, from the store's indexes. */
  page(query: RunPageQuery): Promise<RunPage>;
}

/** Which runs a listing holds: each field given narrows it. */
export interface RunFilter {
  cluster?: string;
  runbook?: string;
  verdict?: Verdict;
  /** What started them: alerts, a schedule, Slack, the CLI. */
  source?: TriggerSource;
  /** Runs queued at or after this time (ISO 8601, UTC). */
  since?: string;
}

export interface RunPageQuery extends RunFilter {
  /** At most this many runs. */
  limit: number;
  /** Runs older than this position (a page's `next`). */
  after?: string;
}

export interface RunPage {
  runs: RunRecord[];
  /**
   * Where the next page starts (a position in the newest-first order, see run-order.ts); absent
   * on the last page. A page read through a narrow filter may hold fewer than `limit` runs, even
   * none, and still have a next one: each page reads a bounded part of the index.
   */
  next?: string;
}

/**
 * The state of one (cluster, runbook, mode) pair's automatic runs within its window: which run
 * holds it (queued or running), what later alerts left for its one follow-up, and the follow-up
 * once handed over. Opaque to the store beyond `version` (see src/routing/follow-up.ts).
 */
export interface PairState {
  /** The job whose run holds the pair, queued or running; absent once it ended. */
  owner?: string;
  /** This window's follow-up was made: later alerts are duplicates until the window ends. */
  followedUp: boolean;
  /** What alerts that came while `owner` was queued or running left for the follow-up. */
  absorbed?: {
    /** The latest absorbed job as it travels (mode, params, trigger), the follow-up's template. */
    job: unknown;
    /** The alerts absorbed, one per fingerprint, at most a few dozen. */
    alerts: unknown[];
    /** How many notifications were absorbed. */
    notifications: number;
  };
  /** The follow-up once handed over, kept so a finisher that died before queueing it can send it again. */
  next?: unknown;
  /** Every change adds one; a write is conditional on the version read. */
  version: number;
}

export interface PairStore {
  /** The pair's state, undefined when it has none or its window ended. */
  get(key: string, now: Date): Promise<PairState | undefined>;
  /**
   * Writes `state` for `ttlSeconds` only while the stored one is at `state.version - 1` (version 1:
   * none, or its window ended): false when another writer moved it on first.
   */
  put(key: string, state: PairState, ttlSeconds: number, now: Date): Promise<boolean>;
}

export interface StateStore {
  dedupe: DedupeStore;
  /** Automatic runs per (cluster, runbook, mode) pair: one run, at most one follow-up, per window. */
  pairs: PairStore;
  leases: LeaseStore;
  brake: BrakeStore;
  runs: RunStore;
  /** What a run that continues in another invocation did so far. */
  checkpoints: CheckpointStore;
  /** Chat thread roots per problem, shared by every function that posts. */
  threads: ThreadIndex;
}

/** A thread's root message: Slack needs the channel id (not the name) and `ts` to edit it. */
export interface ThreadRef {
  channel: string;
  ts: string;
  /** The problem the thread is about (see src/chat/threading.ts); empty once it is resolved. */
  problem?: string;
  /** The state last said in it (verdict and counts): a reply is posted only when this changes. */
  state?: string;
}

/**
 * Remembers threadKey → root message. In memory by default; a persistent one lets a later Lambda
 * invocation edit the thread an earlier one started.
 */
export interface ThreadIndex {
  get(threadKey: string): Promise<ThreadRef | undefined>;
  set(threadKey: string, ref: ThreadRef): Promise<void>;
}
