// Scratch: interleaved cold starts of several bundles vs node -e 0: median wall and CPU (user+sys).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { startFakeAws } from '../test/helpers/fake-aws.ts';
const rounds = Number(process.env.ROUNDS ?? 9);
const files = process.argv.slice(2);
const aws = await startFakeAws({ cluster: { endpoint: 'https://127.0.0.1:1', caData: '' }, secret: { slackSigningSecret: 'b', slackBotToken: 'xoxb-b', alertmanagerToken: 'b' } });
const env = {
  PATH: process.env.PATH, TABLE_NAME: 'responder-state', QUEUE_URL: `${aws.url}/111122223333/jobs`,
  DEAD_LETTER_QUEUE_URL: `${aws.url}/111122223333/dead-letters`,
  SECRETS_ID: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder',
  OPERATOR_SECRET_ID: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder-operator',
  RESPONDER_CONFIG: './responder.config.json', POWERTOOLS_SERVICE_NAME: 'cilium-responder', AWS_REGION: 'eu-west-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.url,
  AWS_ENDPOINT_URL_DYNAMODB: aws.url, AWS_ENDPOINT_URL_SQS: aws.url, ...(process.env.EXTRA_ENV ? JSON.parse(process.env.EXTRA_ENV) : {}),
};
const scratch = mkdtempSync(join(tmpdir(), 'multi-'));
const CPU = `;process.on('exit',()=>{const c=process.cpuUsage();process.stdout.write('\\nCPU '+(c.user+c.system)/1000)})`;
const run = (args: string[], cwd?: string) => new Promise<[number, number]>((resolve, reject) => {
  const t = performance.now();
  const last = args.length - 1;
  const child = spawn(process.execPath, args.map((a, i) => (i === last ? a + CPU : a)), { env, cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.on('exit', (code) => {
    const wall = performance.now() - t;
    if (code !== 0) return reject(new Error(`exit ${code} ${args}`));
    resolve([wall, Number(/CPU ([\d.]+)/.exec(out)?.[1])]);
  });
});
const results = new Map<string, [number, number][]>();
const add = (k: string, v: [number, number]) => results.set(k, [...(results.get(k) ?? []), v]);
for (let i = 0; i < rounds; i++) {
  add('node -e 0', await run(['-e', '0']));
  for (const f of files) add(f, await run(['--input-type=module', '-e', process.env.IMPORT ? process.env.IMPORT.replace('FILE', JSON.stringify(f)) : `await import(${JSON.stringify(f)})`], dirname(f)));
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const bare = results.get('node -e 0')!;
for (const [k, v] of results) {
  const ratios = v.map(([w], i) => w / bare[i]![0]);
  console.log(`${k.padEnd(34)} wall ${med(v.map((x) => x[0])).toFixed(0).padStart(4)} ms  cpu ${med(v.map((x) => x[1])).toFixed(0).padStart(4)} ms  ratio(med of paired) ${med(ratios).toFixed(2)}`);
}
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await aws.close();
