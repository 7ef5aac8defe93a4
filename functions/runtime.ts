import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { App } from '../src/app/app.ts';
import { type AppPorts, DEFAULT_CHANNEL } from '../src/app/ports.ts';
import { CONSOLE_URL_ENV, consoleUrlSource } from '../src/chat/console-link.ts';
import { unconfiguredChat } from '../src/chat/unconfigured.ts';
import { checkDeployedConfig, DEPLOYED_CONFIG_FILE, loadDeployedConfig } from '../src/config/deployed.ts';
import type { ResponderConfig } from '../src/config/schema.ts';
import type { AwsClients } from './aws-clients.ts';
import { awsJson } from './aws-json.ts';
import { lazyAwsClients, lazyQueue, lazyStore } from './lazy-aws.ts';
import { lazySlackDirectory, lazySlackSink } from './lazy-slack.ts';
import { onFirstCall } from './on-first-call.ts';

/**
 * The secrets' JSON, as the stack creates them (Secrets Manager, read at cold start and cached):
 * SECRETS_ID holds the Slack fields (empty until someone puts them) and the generated
 * alertmanagerToken; OPERATOR_SECRET_ID, given to the http function only, the generated operatorToken.
 */
export interface Secrets {
  slackSigningSecret?: string;
  slackBotToken?: string;
  /** The Slack app's OpenID Connect client ("Sign in with Slack" to the web console). */
  slackClientId?: string;
  slackClientSecret?: string;
  alertmanagerToken?: string;
  operatorToken?: string;
}
export type SecretField = keyof Secrets;

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
    operatorSecretId: process.env.OPERATOR_SECRET_ID,
    /** The config the stack validated at synth and bundled beside the code, as JSON. */
    configPath: process.env.RESPONDER_CONFIG ?? DEPLOYED_CONFIG_FILE,
    maxAttempts: Number(process.env.MAX_ATTEMPTS ?? '3'),
    defaultChannel: process.env.DEFAULT_CHANNEL ?? DEFAULT_CHANNEL,
    slackApiUrl: process.env.SLACK_API_URL,
    /** The console's OpenID provider: Slack's unless set (a rehearsal points it at a local one). */
    slackOidcIssuer: process.env.SLACK_OIDC_ISSUER,
    /** The web console's URL (the stack's Function URL): each report posted ends with its run's page. */
    consoleUrl: process.env[CONSOLE_URL_ENV],
  };
}

/** What a function has once its cold start is done: its config and secrets read, nothing else built. */
export interface LambdaEdge {
  env: ReturnType<typeof lambdaEnv>;
  config: ResponderConfig;
  log: AppPorts['log'];
  secrets: Secrets;
  /** Where each secret field lives, to name it in an answer that lacks it. */
  secretSources: Record<SecretField, string>;
  /** The SDK's DynamoDB and SQS clients, built on the first call that needs them. */
  clients: () => Promise<AwsClients>;
  /** Where reports link to the console; the http function tells it the origin it is served at. */
  consoleUrl: ReturnType<typeof consoleUrlSource>;
  /**
   * The core (routing, admission, the runbook catalog and its params schemas, zod), built by the
   * first call and kept; a build that failed (a config naming an unknown runbook) is tried again.
   */
  loadApp: () => Promise<App>;
}

export interface LambdaRuntime extends Omit<LambdaEdge, 'loadApp'> {
  app: App;
}

/**
 * A function's cold start: the config (bundled, as JSON) and the secrets, read at once, and the
 * clients and the core ready to be built when a request needs them. The http function stops here
 * (its cold start loads no payload schema); the others build the core at once (lambdaRuntime).
 */
export async function lambdaEdge(needs: readonly SecretField[] = ['slackBotToken']): Promise<LambdaEdge> {
  const env = lambdaEnv();
  const log = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'cilium-responder' });
  const secretIds = [env.secretId, ...(env.operatorSecretId ? [env.operatorSecretId] : [])];
  const [config, texts] = await Promise.all([loadDeployedConfig(env.configPath), readSecretTexts(secretIds)]);
  const read = texts.map(({ id, text }) => ({ id, fields: fieldsOf(id, text, log) }));
  const secrets: Secrets = Object.assign({}, ...read.map(({ fields }) => fields));
  const secretSources = secretSourcesOf(read);
  // Said once per cold start; the function still starts (the http app answers 503 naming the field).
  const missing = needs.filter((field) => !secrets[field]);
  if (missing.length > 0)
    log.warn(
      `secret fields empty or missing: ${missing.map((f) => `${f} (${secretSources[f]})`).join(', ')}`,
      {
        missing,
      },
    );
  const clients = lazyAwsClients(env);
  const store = lazyStore(clients);
  const consoleUrl = consoleUrlSource(env.consoleUrl);
  const slack = { ...(env.slackApiUrl ? { slackApiUrl: env.slackApiUrl } : {}) };
  const logger: AppPorts['log'] = {
    info: (message, data) => log.info(message, { ...data }),
    warn: (message, data) => log.warn(message, { ...data }),
    error: (message, data) => log.error(message, { ...data }),
  };
  const buildApp = async (): Promise<App> => {
    const [{ catalogWithTeam, TEAM_CATALOG_ENV }, { createApp }] = await Promise.all([
      import('../runbooks/team-catalog.ts'),
      import('../src/app/app.ts'),
    ]);
    // A team's runbooks are bundled into the worker; the others know them by their catalog entries.
    const catalog = catalogWithTeam(process.env[TEAM_CATALOG_ENV]);
    const runbookIds = catalog.map((runbook) => runbook.id);
    checkDeployedConfig(env.configPath, config, { runbooks: runbookIds });
    return createApp({
      config,
      runbookIds,
      runbookInfo: catalog,
      store,
      queue: lazyQueue(clients),
      // Thread roots live in the table, so every function edits the same thread. Until the bot token
      // is put, runs still run and are recorded; what would be posted is logged with why.
      chat: secrets.slackBotToken
        ? lazySlackSink({
            token: secrets.slackBotToken,
            threads: store.threads,
            ...slack,
            consoleUrl: consoleUrl.url,
          })
        : unconfiguredChat(
            `Slack is not configured: slackBotToken is empty in ${secretSources.slackBotToken}`,
            logger,
          ),
      ...(secrets.slackBotToken
        ? { directory: lazySlackDirectory({ token: secrets.slackBotToken, ...slack }) }
        : {}),
      defaultChannel: env.defaultChannel,
      now: () => new Date(),
      newId: randomUUID,
      log: logger,
    });
  };
  return {
    env,
    config,
    log: logger,
    secrets,
    secretSources,
    clients,
    consoleUrl,
    loadApp: onFirstCall(buildApp),
  };
}

/**
 * The composition root as the alarm, sweep and worker functions build it, once per cold start: the
 * config (bundled), DynamoDB, SQS, Slack, the secrets and the core. Which functions also reach
 * clusters is their own business (see worker.ts), so the others carry no cluster client.
 */
export async function lambdaRuntime(needs?: readonly SecretField[]): Promise<LambdaRuntime> {
  const { loadApp, ...edge } = await lambdaEdge(needs);
  return { ...edge, app: await loadApp() };
}

const FIELDS: readonly SecretField[] = [
  'slackSigningSecret',
  'slackBotToken',
  'slackClientId',
  'slackClientSecret',
  'alertmanagerToken',
  'operatorToken',
];

interface BatchAnswer {
  SecretValues?: { ARN?: string; Name?: string; SecretString?: string }[];
  Errors?: { SecretId?: string; ErrorCode?: string; Message?: string }[];
}

/**
 * Every secret's text in one signed BatchGetSecretValue (one connection, one round trip at a cold
 * start, however many secrets); a secret Secrets Manager could not give stops the cold start, named.
 */
async function readSecretTexts(ids: string[]): Promise<{ id: string; text: string | undefined }[]> {
  const answer = (await awsJson({
    service: 'secretsmanager',
    target: 'secretsmanager.BatchGetSecretValue',
    body: { SecretIdList: ids },
    endpointEnv: 'AWS_ENDPOINT_URL_SECRETS_MANAGER',
  }).catch((error: Error) => {
    throw new Error(`secrets ${ids.join(', ')} could not be read: ${error.message}`, { cause: error });
  })) as BatchAnswer;
  const failed = answer.Errors?.[0];
  if (failed)
    throw new Error(`secret ${failed.SecretId} could not be read: ${failed.ErrorCode}: ${failed.Message}`);
  return ids.map((id) => {
    const value = answer.SecretValues?.find((v) => v.ARN === id || v.Name === id);
    if (!value) throw new Error(`secret ${id} could not be read: Secrets Manager's answer did not hold it`);
    return { id, text: value.SecretString };
  });
}

/** One secret's string fields; a secret that is not a JSON object counts as empty, and says so. */
function fieldsOf(id: string, text: string | undefined, log: Logger): Secrets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof text === 'string' ? text : '');
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    log.error(
      `secret ${id} is not a JSON object: put {"slackSigningSecret": ..., "slackBotToken": ...} there`,
    );
    return {};
  }
  const entries = Object.entries(parsed).filter(
    ([key, value]) => (FIELDS as readonly string[]).includes(key) && typeof value === 'string',
  );
  return Object.fromEntries(entries) as Secrets;
}

/** The operator token is in its own secret when the stack gives one; everything else in SECRETS_ID. */
function secretSourcesOf(read: { id: string; fields: Secrets }[]): Record<SecretField, string> {
  const [main, operator] = read;
  const name = (id: string | undefined) => `secret ${id ?? 'SECRETS_ID'}`;
  return {
    slackSigningSecret: name(main?.id),
    slackBotToken: name(main?.id),
    slackClientId: name(main?.id),
    slackClientSecret: name(main?.id),
    alertmanagerToken: name(main?.id),
    operatorToken: name(operator?.id ?? main?.id),
  };
}
