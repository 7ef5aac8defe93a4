import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { RUNBOOKS } from '../runbooks/index.ts';
import { connect } from '../src/cluster/connect.ts';
import { clusterRef } from '../src/config/cluster-ref.ts';
import { loadConfig } from '../src/config/load.ts';
import { sqsQueue } from '../src/queue/sqs.ts';
import type { DispatchContext } from '../src/routing/dispatch.ts';
import { slackDirectory } from '../src/slack/directory.ts';
import { slackSink } from '../src/slack/sink.ts';
import { dynamoStore } from '../src/store/index.ts';
import type { WorkerContext } from '../src/worker/run-job.ts';

interface Secrets {
  slackSigningSecret?: string;
  slackBotToken?: string;
  alertmanagerToken?: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

/**
 * What every Lambda entry point shares, built once per cold start from the environment the stack
 * sets: the config (bundled), the table, the queues, and the secrets (Secrets Manager, cached).
 */
export async function productionDeps() {
  const env = {
    table: required('TABLE_NAME'),
    queueUrl: required('QUEUE_URL'),
    deadLetterQueueUrl: required('DEAD_LETTER_QUEUE_URL'),
    secretId: required('SECRETS_ID'),
    configPath: process.env.RESPONDER_CONFIG ?? 'responder.config.yaml',
    maxAttempts: Number(process.env.MAX_ATTEMPTS ?? '3'),
    defaultChannel: process.env.DEFAULT_CHANNEL ?? '#cilium-responder',
  };
  const log = new Logger({ serviceName: 'cilium-responder' });
  const config = await loadConfig(env.configPath, { runbooks: RUNBOOKS.map((r) => r.id) });
  const secrets = ((await getSecret(env.secretId, { transform: 'json', maxAge: 300 })) ?? {}) as Secrets;
  const store = dynamoStore({ client: new DynamoDBClient({}), table: env.table });
  const sqs = new SQSClient({});
  const now = () => new Date();
  // One sink for every function, with thread roots in the table: a problem keeps one thread.
  const chat = slackSink({ token: secrets.slackBotToken ?? '', threads: store.threads });
  const dispatch: DispatchContext = {
    config,
    chat,
    defaultChannel: env.defaultChannel,
    ...(secrets.slackBotToken ? { directory: slackDirectory({ token: secrets.slackBotToken }) } : {}),
    store,
    queue: sqsQueue(sqs, env.queueUrl),
    runbooks: RUNBOOKS.map((r) => r.id),
    now,
    newId: randomUUID,
  };
  const worker: Omit<WorkerContext, 'owner'> = {
    config,
    store,
    runbooks: RUNBOOKS,
    connect: (cluster) => connect(clusterRef(cluster)),
    chat,
    defaultChannel: env.defaultChannel,
    now,
    log: {
      info: (message, data) => log.info(message, { ...data }),
      warn: (message, data) => log.warn(message, { ...data }),
      error: (message, data) => log.error(message, { ...data }),
    },
  };
  return {
    env,
    dispatch,
    worker,
    sqs,
    secrets: { slackSigningSecret: secrets.slackSigningSecret, alertmanagerToken: secrets.alertmanagerToken },
  };
}
