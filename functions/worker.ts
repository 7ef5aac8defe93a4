import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { sendToDeadLetterQueue } from '../src/queue/sqs.ts';
import { runJob } from '../src/worker/run-job.ts';
import { productionDeps } from './deps.ts';
import { handleRecord } from './worker-batch.ts';

const deps = await productionDeps();
const processor = new BatchProcessor(EventType.SQS);

/** SQS → runs; partial batch failures so only the failed messages come back. */
export const handler = (event: SQSEvent, context: { awsRequestId: string }) =>
  processPartialResponse(
    event,
    (record: SQSRecord) =>
      handleRecord(record, {
        run: (job) => runJob(job, { ...deps.worker, owner: context.awsRequestId }),
        deadLetter: (letter) => sendToDeadLetterQueue(deps.sqs, deps.env.deadLetterQueueUrl, letter),
        maxAttempts: deps.env.maxAttempts,
      }),
    processor,
    { context: context as never },
  );
