import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { sqsQueue } from '../src/queue/sqs.ts';
import { dynamoStore } from '../src/store/index.ts';

/** The table and the queue through the AWS SDK: loaded by lazy-aws.ts with the first call that needs them. */
export function awsClients(env: { table: string; queueUrl: string }) {
  const sqs = new SQSClient({});
  return {
    sqs,
    store: dynamoStore({ client: new DynamoDBClient({}), table: env.table }),
    queue: sqsQueue(sqs, env.queueUrl),
  };
}

export type AwsClients = ReturnType<typeof awsClients>;
