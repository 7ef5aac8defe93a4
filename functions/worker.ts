import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { RUNBOOKS } from '../runbooks/index.ts';
import { createWorker } from '../src/app/worker.ts';
import { connect } from '../src/cluster/connect.ts';
import { clusterRef } from '../src/config/cluster-ref.ts';
import { sendToDeadLetterQueue } from '../src/queue/sqs.ts';
import { lambdaRuntime } from './runtime.ts';
import { handleRecord } from './worker-batch.ts';

const { app, env, sqs } = await lambdaRuntime();
const worker = createWorker(app.ports, {
  runbooks: RUNBOOKS,
  connect: (cluster) => connect(clusterRef(cluster)),
});
const processor = new BatchProcessor(EventType.SQS);

/** SQS → runs; partial batch failures so only the failed messages come back. */
export const handler = (event: SQSEvent, context: { awsRequestId: string }) =>
  processPartialResponse(
    event,
    (record: SQSRecord) =>
      handleRecord(record, {
        run: (job) => worker.run(job),
        deadLetter: async (letter) => {
          await sendToDeadLetterQueue(sqs, env.deadLetterQueueUrl, letter);
          await worker.deadLettered(letter);
        },
        maxAttempts: env.maxAttempts,
      }),
    processor,
    { context: context as never },
  );
