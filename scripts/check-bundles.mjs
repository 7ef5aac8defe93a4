// Checks a synthesized responder stack's Lambda bundles: the worker carries the named team
// runbooks (by its source map: the files esbuild put in it), and the http, alarm and sweep functions
// carry no cluster client (by strings each client's code holds, which the worker must hold too, so
// the check cannot pass by looking for the wrong thing).
// Usage: node check-bundles.mjs <cdk.out> <stack> <runbook source path>...
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, stackName, ...runbookPaths] = process.argv.slice(2);
const template = JSON.parse(readFileSync(join(outDir, `${stackName}.template.json`), 'utf8'));

/** The asset folder of the function whose logical id names it. */
function assetOf(name) {
  const entry = Object.entries(template.Resources).find(
    ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.includes(`Responder${name}`),
  );
  if (!entry) throw new Error(`no ${name} function in ${stackName}`);
  return join(outDir, entry[1].Metadata?.['aws:asset:path']);
}

/** A string each cluster client's bundled code holds. */
const CLUSTER_CLIENTS = {
  '@kubernetes/client-node': 'kubernetes.io/serviceaccount',
  '@aws-sdk/client-ec2': '"AmazonEC2"',
  '@aws-sdk/client-eks': 'AWSWesleyFrontend',
};
const clientsIn = (code) =>
  Object.keys(CLUSTER_CLIENTS).filter((client) => code.includes(CLUSTER_CLIENTS[client]));

/** A function's code: its entry (index.mjs) and the chunks its dynamic imports load, all of it. */
const codeOf = (asset) =>
  readdirSync(asset)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => readFileSync(join(asset, file), 'utf8'))
    .join('\n');
/** The sources esbuild put in a function's files, by their source maps. */
const sourcesOf = (asset) =>
  readdirSync(asset)
    .filter((file) => file.endsWith('.mjs.map'))
    .flatMap((file) => JSON.parse(readFileSync(join(asset, file), 'utf8')).sources);

const problems = [];
const worker = assetOf('Worker');
const sources = sourcesOf(worker);
for (const path of runbookPaths)
  if (!sources.some((source) => source.endsWith(path))) problems.push(`the worker bundle lacks ${path}`);
const workerClients = clientsIn(codeOf(worker));
if (workerClients.length !== Object.keys(CLUSTER_CLIENTS).length)
  problems.push(
    `the worker bundle should carry every cluster client; it has ${workerClients.join(', ') || 'none'}`,
  );
for (const name of ['Http', 'Alarm', 'Sweep']) {
  const clients = clientsIn(codeOf(assetOf(name)));
  if (clients.length > 0) problems.push(`the ${name} bundle carries ${clients.join(', ')}`);
}
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `bundles ok: the worker carries ${runbookPaths.join(', ')}; no cluster client elsewhere\n`,
);
