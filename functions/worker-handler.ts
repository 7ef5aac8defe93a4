import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createWorker } from '../src/app/worker.ts';
import { connect } from '../src/cluster/connect.ts';
import { clusterRef } from '../src/config/cluster-ref.ts';
import { brakeRefusals } from '../src/engine/actuator.ts';
import type { AnyRunbook } from '../src/engine/types.ts';
import { sendToDeadLetterQueue } from '../src/queue/sqs.ts';
import { lambdaRuntime } from './runtime.ts';
import { handleRecord } from './worker-batch.ts';

/**
 * The worker's SQS handler for these runbooks: the built-in ones (functions/worker.ts), or
 * with a team's own (the entry the construct writes for them).
 */
export async function workerHandler(runbooks: readonly AnyRunbook[]) {
  const { app, env, clients } = await lambdaRuntime();
  const worker = createWorker(app.ports, {
    runbooks,
    connect: (cluster) => connect(clusterRef(cluster)),
  });
  const processor = new BatchProcessor(EventType.SQS);
  /** CloudWatch metrics (EMF): the stack alarms on brake trips. */
  const metrics = new Metrics({ namespace: 'CiliumResponder', serviceName: 'cilium-responder' });
  /** X-Ray: a subsegment per batch, annotated with the cold start and the service. */
  const tracer = new Tracer({ serviceName: 'cilium-responder' });

  /** SQS → runs; partial batch failures so only the failed messages come back. */
  return async (event: SQSEvent, context: { awsRequestId: string; getRemainingTimeInMillis(): number }) => {
    const segment = tracer.getSegment();
    const batch = segment?.addNewSubsegment('## worker batch');
    if (batch) tracer.setSegment(batch);
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
    try {
      return await processPartialResponse(
        event,
        (record: SQSRecord) =>
          handleRecord(record, {
            run: async (job) => {
              // A run that cannot finish in this invocation continues in the next one.
              const result = await worker.run(job, { timeLeftMs: () => context.getRemainingTimeInMillis() });
              if (result.report)
                metrics.addMetric('BrakeTrips', MetricUnit.Count, brakeRefusals(result.report));
              return result;
            },
            deadLetter: async (letter) => {
              await sendToDeadLetterQueue((await clients()).sqs, env.deadLetterQueueUrl, letter);
              await worker.deadLettered(letter);
            },
            maxAttempts: env.maxAttempts,
            log: app.ports.log,
          }),
        processor,
        { context: context as never },
      );
    } finally {
      // A batch that made no report has nothing to publish (Powertools would warn each time).
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
      batch?.close();
      if (segment) tracer.setSegment(segment);
    }
  };
}
