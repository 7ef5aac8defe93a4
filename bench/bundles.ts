import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { DEPLOYED_CONFIG_FILE } from '../src/config/deployed.ts';
import { deployedConfigText } from '../src/config/deployed-text.ts';
import { parseConfig } from '../src/config/load.ts';
import { startFakeAws } from '../test/helpers/fake-aws.ts';
import { type Bundled, bundleLikeTheDeploy } from './bundle-like-deploy.ts';
import { startDynaliteProcess } from './dynalite-process.ts';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { BENCH_WEBHOOK_TOKEN, coldStartAndFirstWebhook } from './first-webhook.ts';
import { peakRssFromStatus } from './memory-sample.ts';
import { lastJsonLine, runMeasured } from './processes.ts';
import { ROUNDS } from './sizes.ts';

const FUNCTIONS = ['http', 'alarm', 'sweep', 'worker'] as const;

/** A config as a deployment bundles it beside each function (read at every cold start): validated, as JSON. */
const CONFIG = `
clusters:
  - name: prod-eu
    eks: { name: prod-eu, region: eu-west-1 }
    channel: '#prod-eu'
  - name: prod-us
    eks: { name: prod-us, region: us-east-1 }
routes:
  - match: { alertname: CiliumUnmanagedPods }
    runbook: unmanaged-pods
`;

/** A function bundled as cdk/bundling.ts bundles it, with the config beside it as in /var/task. */
async function bundle(name: string, dir: string, options: { sourcemap?: boolean } = {}): Promise<Bundled> {
  const bundled = await bundleLikeTheDeploy(`functions/${name}.ts`, join(dir, name), options);
  const config = parseConfig(CONFIG, 'bench config', { runbooks: RUNBOOK_IDS });
  writeFileSync(join(dir, name, DEPLOYED_CONFIG_FILE), deployedConfigText(config));
  return bundled;
}

/**
 * Imports a bundle in a fresh process, as Lambda's init does: its top level reads the config and
 * fetches its secrets before the import resolves (the SDK clients for the table and the queue are
 * built by the first request that uses them). Prints the peak RSS.
 */
const IMPORT = (file: string) =>
  `await import(${JSON.stringify(file)}); const { readFileSync } = await import('node:fs'); process.stdout.write(JSON.stringify({ status: readFileSync('/proc/self/status', 'utf8'), maxRssMiB: process.resourceUsage().maxRSS / 1024 }))`;

/**
 * Each function's bundle: what its cold start reads and what it ships, and its cold start (the
 * module graph, the config read, the secrets fetched from a local Secrets Manager stand-in) beside
 * a bare `node -e 0`, alternated round by round.
 */
export async function bundlesBench(): Promise<Figures> {
  mkdirSync(join(process.cwd(), 'cdk.out'), { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), 'cdk.out', 'bench-bundles-'));
  const built = await Promise.all(FUNCTIONS.map((name) => bundle(name, dir)));
  const bundles = built.map((b) => b.entry);
  const aws = await startFakeAws({
    cluster: { endpoint: 'https://127.0.0.1:1', caData: '' },
    secret: {
      slackSigningSecret: 'bench',
      slackBotToken: 'xoxb-bench',
      alertmanagerToken: BENCH_WEBHOOK_TOKEN,
    },
  });
  const dynamodb = await startDynaliteProcess();
  // As Lambda's: no NODE_EXTRA_CA_CERTS (a CA bundle read at every start), for `node -e 0` as for the functions.
  const env = {
    PATH: process.env.PATH,
    TABLE_NAME: 'responder-state',
    QUEUE_URL: `${aws.url}/111122223333/jobs`,
    DEAD_LETTER_QUEUE_URL: `${aws.url}/111122223333/dead-letters`,
    SECRETS_ID: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder',
    RESPONDER_CONFIG: `./${DEPLOYED_CONFIG_FILE}`,
    POWERTOOLS_SERVICE_NAME: 'cilium-responder',
    AWS_REGION: 'eu-west-1',
    // Lambda runs Node 22, where the SDK prints no Node version warning; this bench may run on Node 20.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.url,
    AWS_ENDPOINT_URL_DYNAMODB: aws.url,
    AWS_ENDPOINT_URL_SQS: aws.url,
  };
  /**
   * One cold start in a fresh process, with the secrets the stack gives that function (the http
   * function also reads the operator token's own secret), all read in one BatchGetSecretValue. A
   * cold start that did not fetch them measured less than it claims.
   */
  const coldStart = async (file: string, nodeOptions: string[] = []) => {
    const http = basename(dirname(file)) === 'http';
    const operator = http ? { OPERATOR_SECRET_ID: `${env.SECRETS_ID}-operator` } : {};
    const fetched = secretFetches(aws.calls);
    const run = await runMeasured(
      process.execPath,
      [...nodeOptions, '--input-type=module', '-e', IMPORT(file)],
      { env: { ...env, ...operator }, cwd: dirname(file) },
    );
    if (secretFetches(aws.calls) !== fetched + 1)
      throw new Error(`${file}: its cold start did not read its secrets in one BatchGetSecretValue`);
    // The child's own peak (ownPeakRssMiB says why not its maxRSS, but for where /proc is not).
    const child = lastJsonLine<{ status: string; maxRssMiB: number }>(run.stdout);
    return { seconds: run.seconds, maxRssMiB: peakRssFromStatus(child.status) ?? child.maxRssMiB };
  };
  try {
    const bare: number[] = [];
    const starts = FUNCTIONS.map(() => [] as number[]);
    const rss = FUNCTIONS.map(() => [] as number[]);
    const webhook: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push((await runMeasured(process.execPath, ['-e', '0'], { env })).seconds);
      for (const [index, file] of bundles.entries()) {
        const run = await coldStart(file);
        starts[index]?.push(run.seconds);
        rss[index]?.push(run.maxRssMiB);
      }
      // An empty table each round, as a first webhook finds the state of a new stack: every round admits and queues one run.
      const table = await dynamodb.createTable();
      webhook.push(
        await coldStartAndFirstWebhook(bundles[0] as string, {
          ...env,
          OPERATOR_SECRET_ID: `${env.SECRETS_ID}-operator`,
          TABLE_NAME: table,
          AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
        }),
      );
    }
    const figures: Figures = {};
    FUNCTIONS.forEach((name, index) => {
      const { startupBytes, shippedBytes } = built[index] as Bundled;
      const seconds = starts[index] as number[];
      figures[`${name}: read at cold start, minified (KiB)`] = Math.round(startupBytes / 1024);
      figures[`${name}: shipped, minified (KiB)`] = Math.round(shippedBytes / 1024);
      figures[`${name}: cold start: import, config, secrets (s)`] = fromRuns(seconds, 3);
      figures[`${name}: cold start / node -e 0`] = fromRuns(
        pairedRatios(seconds, bare),
        2,
        name === 'http' ? { atMost: 3 } : {},
      );
      figures[`${name}: peak RSS after the cold start (MiB)`] = fromRuns(rss[index] as number[], 0);
    });
    // The first request's own share: its SDK clients (loaded with it), their first calls to the table and the queue.
    figures['http: cold start and a first webhook queued: import, config, secrets, table, queue (s)'] =
      fromRuns(webhook, 3);
    figures['http: cold start and a first webhook queued / node -e 0'] = fromRuns(
      pairedRatios(webhook, bare),
      2,
    );
    figures['node -e 0 (s)'] = fromRuns(bare, 3);
    return { ...figures, ...(await sourceMapsBench(dir, coldStart)) };
  } finally {
    await aws.close();
    dynamodb.stop();
  }
}

const secretFetches = (calls: readonly { service: string; action: string }[]) =>
  calls.filter((call) => call.service === 'secretsmanager' && call.action === 'BatchGetSecretValue').length;

/**
 * The cost of NODE_OPTIONS=--enable-source-maps (the stack sets it on the worker, so its traces
 * name the TypeScript): the bundles with their maps, as the deploy ships them, each cold start
 * with and without, round by round.
 */
async function sourceMapsBench(
  dir: string,
  coldStart: (file: string, nodeOptions?: string[]) => Promise<{ seconds: number }>,
): Promise<Figures> {
  const names = ['http', 'worker'] as const;
  const mapped = await Promise.all(
    names.map(async (name) => (await bundle(name, join(dir, 'mapped'), { sourcemap: true })).entry),
  );
  const figures: Figures = {};
  for (const [index, name] of names.entries()) {
    const file = mapped[index] as string;
    const plain: number[] = [];
    const withMaps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push((await coldStart(file)).seconds);
      withMaps.push((await coldStart(file, ['--enable-source-maps'])).seconds);
    }
    const maps = readdirSync(dirname(file)).filter((path) => path.endsWith('.map'));
    const mapBytes = maps.reduce((sum, path) => sum + statSync(join(dirname(file), path)).size, 0);
    figures[`${name}: source maps (KiB)`] = Math.round(mapBytes / 1024);
    figures[`${name}: cold start with --enable-source-maps (s)`] = fromRuns(withMaps, 3);
    figures[`${name}: cold start without (s)`] = fromRuns(plain, 3);
    figures[`${name}: cold start with / without source maps`] = fromRuns(pairedRatios(withMaps, plain), 2);
  }
  return figures;
}
