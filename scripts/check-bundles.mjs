// Checks a synthesized responder stack's Lambda bundles by their source maps (what esbuild put in
// each): the worker carries the named team runbooks; the http function carries no cluster client.
// Usage: node check-bundles.mjs <cdk.out> <stack> <runbook source path>...
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, stackName, ...runbookPaths] = process.argv.slice(2);
const template = JSON.parse(readFileSync(join(outDir, `${stackName}.template.json`), 'utf8'));

/** The bundle's source files, from the asset of the function whose logical id starts with `name`. */
function sourcesOf(name) {
  const entry = Object.entries(template.Resources).find(
    ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.includes(`Responder${name}`),
  );
  if (!entry) throw new Error(`no ${name} function in ${stackName}`);
  const asset = entry[1].Metadata?.['aws:asset:path'];
  return JSON.parse(readFileSync(join(outDir, asset, 'index.mjs.map'), 'utf8')).sources;
}

const CLUSTER_CLIENTS = ['@kubernetes/client-node', '@aws-sdk/client-ec2', '@aws-sdk/client-eks'];
const problems = [];
const worker = sourcesOf('Worker');
for (const path of runbookPaths)
  if (!worker.some((source) => source.endsWith(path))) problems.push(`the worker bundle lacks ${path}`);
for (const name of ['Http', 'Alarm', 'Sweep']) {
  const clients = CLUSTER_CLIENTS.filter((client) => sourcesOf(name).some((s) => s.includes(`/${client}/`)));
  if (clients.length > 0) problems.push(`the ${name} bundle carries ${clients.join(', ')}`);
}
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `bundles ok: the worker carries ${runbookPaths.join(', ')}; no cluster client elsewhere\n`,
);
