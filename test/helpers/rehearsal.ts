import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ResponderStack } from '../../cdk/responder-stack.ts';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { parseConfig } from '../../src/config/load.ts';
import { sqsRecord } from '../functions/harness.ts';

/** A bundled function as Lambda runs it: its module's `handler`. */
export interface Bundled {
  handler: (event: unknown, context?: unknown) => Promise<unknown>;
}

/** Where the loaded bundles find the services the template would give them. */
export interface StandIns {
  /** STS, EKS, SQS and Secrets Manager (test/helpers/fake-aws.ts). */
  aws: string;
  /** DynamoDB for a function, by its logical id's prefix (`Http`, `Worker`...). */
  dynamodb: (logicalPrefix: string) => string;
  slack: string;
}

/**
 * The stack synthesized with its real bundles from `configText`, and what a rehearsal needs to run
 * them offline: the secrets as CloudFormation creates them (their generated keys filled in), which
 * EKS clusters the worker's policy lets it describe, and a loader that imports a function's bundle
 * with the environment the template gives it, its resources made local.
 */
export function synthRehearsal(configText: string) {
  mkdirSync(resolve('cdk.out'), { recursive: true });
  const outdir = mkdtempSync(join(resolve('cdk.out'), 'rehearsal-'));
  const configPath = join(outdir, 'responder.config.yaml');
  writeFileSync(configPath, configText);
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  const stack = new ResponderStack(app, 'Rehearsal', {
    responder: { config: parseConfig(configText, configPath, { runbooks: RUNBOOK_IDS }), configPath },
  });
  const template = Template.fromStack(stack);
  app.synth();
  const granted = JSON.stringify(
    Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement,
    ),
  );
  const secretArn = (logicalId: string) =>
    `arn:aws:secretsmanager:eu-west-1:111122223333:secret:${logicalId}`;
  /** SecretString by ARN, as Secrets Manager holds them. */
  const secrets = new Map<string, string>();
  for (const [id, secret] of Object.entries(template.findResources('AWS::SecretsManager::Secret'))) {
    const generate = secret.Properties.GenerateSecretString;
    const value = {
      ...JSON.parse(generate.SecretStringTemplate),
      [generate.GenerateStringKey]: `generated-${id}`,
    };
    secrets.set(secretArn(id), JSON.stringify(value));
  }

  /** A function's bundle, loaded (a cold start of a container of its own) with the template's environment. */
  async function load(
    logicalPrefix: string,
    table: string,
    standIns: StandIns,
    overrides: Record<string, string> = {},
  ): Promise<Bundled> {
    const [id, resource] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([key]) =>
      key.startsWith(`Responder${logicalPrefix}`),
    ) as [
      string,
      {
        Properties: { Environment: { Variables: Record<string, unknown> }; Timeout?: number };
        Metadata: Record<string, string>;
      },
    ];
    const local: Record<string, string> = {};
    for (const [name, value] of Object.entries(resource.Properties.Environment.Variables)) {
      if (typeof value === 'string') local[name] = value;
      else if (name === 'TABLE_NAME') local[name] = table;
      else if (name === 'QUEUE_URL') local[name] = `${standIns.aws}/111122223333/jobs`;
      else if (name === 'DEAD_LETTER_QUEUE_URL') local[name] = `${standIns.aws}/111122223333/dead-letters`;
      // The stack's Function URL, as the worker's console links name it.
      else if (name === 'RESPONDER_CONSOLE_URL')
        local[name] = 'https://rehearsal.lambda-url.eu-west-1.on.aws/';
      else if (name === 'SECRETS_ID' || name === 'OPERATOR_SECRET_ID')
        local[name] = secretArn((value as { Ref: string }).Ref);
      else throw new Error(`${id}: no local value for ${name}`);
    }
    Object.assign(process.env, local, overrides, {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      AWS_ENDPOINT_URL_DYNAMODB: standIns.dynamodb(logicalPrefix),
      AWS_ENDPOINT_URL_SQS: standIns.aws,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: standIns.aws,
      AWS_ENDPOINT_URL_EKS: standIns.aws,
      SLACK_API_URL: standIns.slack,
      // Lambda runs Node 22, where the SDK prints no Node version warning (it would print one on
      // Node 20, amid the JSON log lines, when a request first builds a client).
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    const assetDir = join(outdir, resource.Metadata['aws:asset:path'] as string);
    // The bundle reads the config beside it at its cold start, as in /var/task.
    const cwd = process.cwd();
    process.chdir(assetDir);
    try {
      const bundled = (await import(
        `${pathToFileURL(join(assetDir, 'index.mjs')).href}?${Date.now()}-${Math.random()}`
      )) as Bundled;
      // Lambda's context counts down the template's timeout from each invocation's start.
      const timeoutMs = (resource.Properties.Timeout ?? 3) * 1000;
      return {
        handler: (event, context) => {
          const startedAt = Date.now();
          return bundled.handler(event, {
            getRemainingTimeInMillis: () => timeoutMs - (Date.now() - startedAt),
            ...(context as object),
          });
        },
      };
    } finally {
      process.chdir(cwd);
    }
  }

  return {
    template,
    outdir,
    secrets,
    secretArn,
    /** Whether the worker's policy names this EKS cluster (DescribeCluster answers only for those). */
    describable: (name: string) => granted.includes(`:cluster/${name}"`),
    /** Deliveries of a job before SQS moves it to the dead-letter queue (the jobs queue's redrive policy). */
    maxReceiveCount: Math.max(
      ...Object.values(template.findResources('AWS::SQS::Queue')).map((queue) =>
        Number(queue.Properties.RedrivePolicy?.maxReceiveCount ?? 0),
      ),
    ),
    /** The dead-letter queue's URL on the stand-in. */
    deadLetters: (standIns: Pick<StandIns, 'aws'>) => `${standIns.aws}/111122223333/dead-letters`,
    /** The jobs queue's URL on the stand-in. */
    jobsQueue: (standIns: Pick<StandIns, 'aws'>) => `${standIns.aws}/111122223333/jobs`,
    load,
  };
}

export type Rehearsal = ReturnType<typeof synthRehearsal>;

/** A Function URL request to the http function, as Lambda hands it over. */
export function functionUrlEvent(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body = '',
) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'lambda-url.local', ...headers },
    requestContext: {
      accountId: '111122223333',
      apiId: 'rehearsal',
      domainName: 'lambda-url.local',
      domainPrefix: 'rehearsal',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'Alertmanager/0.27.0' },
      requestId: 'r-1',
      routeKey: '$default',
      stage: '$default',
      time: '24/Nov/2026:05:00:00 +0000',
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

/** An Alertmanager notification posted to the http function with its bearer token. */
export const alertmanagerEvent = (body: string, token: string) =>
  functionUrlEvent(
    'POST',
    '/alerts/alertmanager',
    { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  );

/**
 * Hands job messages to bundled workers as SQS may: each to every worker at once (SQS delivers at
 * least once; each worker is a container of its own); a delivery that fails (its run goes on in
 * the other worker) comes back after, as SQS returns it once its visibility timeout ends, to the
 * first worker, up to `receives` deliveries in all (at the queue's maxReceiveCount the worker
 * dead-letters what fails). Returns what the last deliveries failed with (nothing, when every job
 * ended).
 */
export async function deliverToEach(
  bodies: readonly string[],
  workers: readonly Bundled[],
  tag: string,
  receives = 2,
): Promise<unknown[]> {
  const deliver = async (body: string, worker: Bundled, receiveCount: number, id: string) => {
    try {
      const batch = (await worker.handler(
        { Records: [sqsRecord(body, receiveCount, id)] },
        { awsRequestId: id },
      )) as { batchItemFailures?: unknown[] } | undefined;
      return batch?.batchItemFailures?.length ? batch.batchItemFailures : undefined;
    } catch (error) {
      return error;
    }
  };
  const first = await Promise.all(
    bodies.flatMap((body, i) =>
      workers.map(async (worker, w) => ({
        body,
        failed: await deliver(body, worker, 1, `${tag}-${i}-${w}`),
      })),
    ),
  );
  let failing = first.filter((delivery) => delivery.failed !== undefined);
  for (let receiveCount = 2; receiveCount <= receives && failing.length > 0; receiveCount++) {
    const again: typeof failing = [];
    for (const [i, { body }] of failing.entries()) {
      const failed = await deliver(
        body,
        workers[0] as Bundled,
        receiveCount,
        `${tag}-again-${receiveCount}-${i}`,
      );
      if (failed !== undefined) again.push({ body, failed });
    }
    failing = again;
  }
  return failing.map(({ failed }) => failed);
}
