import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createWorker } from '../../../src/app/worker.ts';
import type { ChatSink } from '../../../src/chat/types.ts';
import type { ClusterAccess } from '../../../src/cluster/types.ts';
import type { AnyRunbook, Report } from '../../../src/engine/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import type { JobQueue } from '../../../src/queue/types.ts';
import { dynamoStore, type StateStore } from '../../../src/store/index.ts';
import { recordingQueue, testClock, testConfig } from '../../functions/harness.ts';
import { testPorts } from '../app/test-ports.ts';
import type { LocalDynamoDB } from '../store/local-dynamodb.ts';

/** How long before the invocation ends the worker stops taking work. */
export const MARGIN_MS = 5_000;

/**
 * A Lambda invocation as the worker handler sees it: `getRemainingTimeInMillis` starts at
 * `budgetMs` and runs out by `costMs` for every call the run makes that `spend` is told of.
 */
export function lambdaInvocation(budgetMs: number, costMs: number) {
  let spent = 0;
  const calls: string[] = [];
  return {
    calls,
    context: { getRemainingTimeInMillis: () => budgetMs - spent },
    spend(what: string) {
      calls.push(what);
      spent += costMs;
    },
  };
}
export type Invocation = ReturnType<typeof lambdaInvocation>;

/** Chat that keeps what was posted: one report per run is what a person must see. */
function keptChat() {
  const reports: Report[] = [];
  const texts: string[] = [];
  const sink: ChatSink = {
    async postReport(report) {
      reports.push(report);
      return { threadTs: `ts-${reports.length}`, channel: 'C1' };
    },
    async postText(_target, text) {
      texts.push(text);
      return {};
    },
  };
  return { sink, reports, texts };
}

export interface RigOptions {
  deadlineMs?: number;
  maxInvocations?: number;
  maxWrites?: number;
  queue?: JobQueue;
  runbooks?: AnyRunbook[];
  /** What each invocation connects to, told of the invocation running now. */
  connect: (current: () => Invocation | undefined) => Promise<ClusterAccess>;
  /** What one metered call costs the invocation, on the fake Lambda clock. */
  costMs: number;
}

/** The real worker on dynalite, a recording queue and chat, each delivery a fresh invocation. */
export async function continuationRig(local: LocalDynamoDB, options: RigOptions) {
  const store: StateStore = dynamoStore({
    client: DynamoDBDocumentClient.from(local.client),
    table: await local.createTable(),
  });
  const queue = recordingQueue();
  const chat = keptChat();
  const clock = testClock(new Date());
  let current: Invocation | undefined;
  const { maxWrites, connect, runbooks, costMs, queue: ownQueue, ...limits } = options;
  const ports = testPorts({
    config: testConfig({ maxWrites: maxWrites ?? 20 }),
    store,
    queue: ownQueue ?? queue,
    chat: chat.sink,
    now: clock.now,
  });
  const worker = createWorker(ports, {
    runbooks: runbooks ?? RUNBOOKS,
    connect: () => connect(() => current),
    pauseMarginMs: MARGIN_MS,
    ...limits,
  });
  /** One delivery of `job` in a fresh invocation of `budgetMs`. */
  const deliver = async (job: Job, budgetMs: number) => {
    const invocation = lambdaInvocation(budgetMs, costMs);
    current = invocation;
    const result = await worker.run(job, { timeLeftMs: () => invocation.context.getRemainingTimeInMillis() });
    current = undefined;
    return { ...result, calls: invocation.calls };
  };
  return { store, queue, chat, clock, worker, deliver, current: () => current };
}
