import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { catalogWithTeam, TEAM_CATALOG_ENV } from '../runbooks/team-catalog.ts';
import { type App, createApp } from '../src/app/app.ts';
import { type AppPorts, DEFAULT_CHANNEL } from '../src/app/ports.ts';
import { loadConfig } from '../src/config/load.ts';
import { sqsQueue } from '../src/queue/sqs.ts';
import { slackDirectory, slackSink } from '../src/slack/index.ts';
import { dynamoStore } from '../src/store/index.ts';

/** The secret's JSON, as the stack creates it (Secrets Manager, read at cold start and cached). */
export interface Secrets {
  slackSigningSecret?: string;
  slackBotToken?: string;
  alertmanagerToken?: string;
  operatorToken?: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

/** The environment the stack gives every function. */
export function lambdaEnv() {
  return {
    table: required('TABLE_NAME'),
    queueUrl: required('QUEUE_URL'),
    deadLetterQueueUrl: required('DEAD_LETTER_QUEUE_URL'),
    secretId: required('SECRETS_ID'),
    configPath: process.env.RESPONDER_CONFIG ?? 'responder.config.yaml',
    maxAttempts: Number(process.env.MAX_ATTEMPTS ?? '3'),
    defaultChannel: process.env.DEFAULT_CHANNEL ?? DEFAULT_CHANNEL,
    slackApiUrl: process.env.SLACK_API_URL,
  };
}

export interface LambdaRuntime {
  env: ReturnType<typeof lambdaEnv>;
  secrets: Secrets;
  sqs: SQSClient;
  app: App;
}

/**
 * The composition root as every Lambda function builds it, once per cold start: the config
 * (bundled), DynamoDB, SQS, Slack, and the secrets. Which functions also reach clusters is their
 * own business (see worker.ts), so the others carry no cluster client.
 */
export async function lambdaRuntime(): Promise<LambdaRuntime> {
  const env = lambdaEnv();
  const log = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'cilium-responder' });
  // A team's runbooks are bundled into the worker; the others know them by their catalog entries.
  const catalog = catalogWithTeam(process.env[TEAM_CATALOG_ENV]);
  const runbookIds = catalog.map((runbook) => runbook.id);
  const config = await loadConfig(env.configPath, { runbooks: runbookIds });
  const secrets = ((await getSecret(env.secretId, { transform: 'json', maxAge: 300 })) ?? {}) as Secrets;
  const store = dynamoStore({ client: new DynamoDBClient({}), table: env.table });
  const sqs = new SQSClient({});
  const slack = { ...(env.slackApiUrl ? { slackApiUrl: env.slackApiUrl } : {}) };
  const ports: AppPorts = {
    config,
    runbookIds,
    runbookInfo: catalog,
    store,
    queue: sqsQueue(sqs, env.queueUrl),
    // Thread roots live in the table, so every function edits the same thread.
    chat: slackSink({ token: secrets.slackBotToken ?? '', threads: store.threads, ...slack }),
    ...(secrets.slackBotToken
      ? { directory: slackDirectory({ token: secrets.slackBotToken, ...slack }) }
      : {}),
    defaultChannel: env.defaultChannel,
    now: () => new Date(),
    newId: randomUUID,
    log: {
      info: (message, data) => log.info(message, { ...data }),
      warn: (message, data) => log.warn(message, { ...data }),
      error: (message, data) => log.error(message, { ...data }),
    },
  };
  return { env, secrets, sqs, app: createApp(ports) };
}
