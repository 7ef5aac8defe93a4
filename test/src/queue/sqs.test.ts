import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJob } from '../../../src/queue/job-schema.ts';
import { memoryQueue } from '../../../src/queue/memory.ts';
import { sendToDeadLetterQueue, sqsQueue } from '../../../src/queue/sqs.ts';
import { sampleJob } from './fixtures.ts';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/responder-jobs';
const DLQ_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/responder-jobs-dlq';

const sqs = mockClient(SQSClient);
const client = new SQSClient({ region: 'eu-west-1' });

beforeEach(() => {
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});
afterAll(() => sqs.restore());

function sentInputs() {
  return sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
}

describe('sqsQueue', () => {
  it('sends the job as the JSON body to the queue', async () => {
    const job = sampleJob();
    await sqsQueue(client, QUEUE_URL).send(job);
    expect(sentInputs()).toEqual([{ QueueUrl: QUEUE_URL, MessageBody: JSON.stringify(job) }]);
    // The worker reads back exactly the job that was sent.
    expect(parseJob(sentInputs()[0]?.MessageBody ?? '')).toEqual(job);
  });

  it('fails the send when SQS fails, so nobody believes the job queued', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('AWS.SimpleQueueService.NonExistentQueue'));
    await expect(sqsQueue(client, QUEUE_URL).send(sampleJob())).rejects.toThrow('NonExistentQueue');
  });
});

describe('sendToDeadLetterQueue', () => {
  it('keeps the body as it was and carries the reason and attempts as attributes', async () => {
    await sendToDeadLetterQueue(client, DLQ_URL, {
      body: '{"id":',
      reason: 'poison message: not JSON',
      attempts: 1,
    });
    expect(sentInputs()).toEqual([
      {
        QueueUrl: DLQ_URL,
        MessageBody: '{"id":',
        MessageAttributes: {
          reason: { DataType: 'String', StringValue: 'poison message: not JSON' },
          attempts: { DataType: 'Number', StringValue: '1' },
        },
      },
    ]);
  });

  it('cuts a long reason to 1000 characters', async () => {
    await sendToDeadLetterQueue(client, DLQ_URL, {
      body: 'x',
      reason: `failed 3 times: ${'e'.repeat(5000)}`,
      attempts: 3,
    });
    const reason = sentInputs()[0]?.MessageAttributes?.reason?.StringValue ?? '';
    expect(reason).toHaveLength(1000);
    expect(reason.startsWith('failed 3 times: ')).toBe(true);
  });

  it('takes what the in-process queue dead-lettered, reason and all', async () => {
    const queue = memoryQueue({
      retryDelayMs: 1,
      handle: async () => {
        throw new Error('forbidden: pods/eviction');
      },
    });
    const job = sampleJob();
    await queue.send(job);
    await queue.idle();
    for (const letter of queue.deadLetters) await sendToDeadLetterQueue(client, DLQ_URL, letter);
    const [input] = sentInputs();
    expect(input?.MessageBody).toBe(JSON.stringify(job));
    expect(input?.MessageAttributes?.reason?.StringValue).toBe('failed 3 times: forbidden: pods/eviction');
    expect(input?.MessageAttributes?.attempts?.StringValue).toBe('3');
  });
});
