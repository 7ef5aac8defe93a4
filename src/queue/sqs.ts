import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeadLetter, JobQueue } from './types.ts';

/** Jobs to SQS; the message group is not used (standard queue), dedupe happened at admission. */
export function sqsQueue(client: SQSClient, queueUrl: string): JobQueue {
  return {
    async send(job) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
    },
  };
}

/** Puts a dead message on the DLQ with its reason as a message attribute, so nothing is lost silently. */
export async function sendToDeadLetterQueue(
  client: SQSClient,
  queueUrl: string,
  letter: DeadLetter,
): Promise<void> {
  await client.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: letter.body,
      MessageAttributes: {
        reason: { DataType: 'String', StringValue: letter.reason.slice(0, 1000) },
        attempts: { DataType: 'Number', StringValue: String(letter.attempts) },
      },
    }),
  );
}
