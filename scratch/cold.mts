// Scratch: cold start of a bundle vs node -e 0, with timings, against the fake AWS.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { startFakeAws } from '../test/helpers/fake-aws.ts';
const file = process.argv[2] ?? '/tmp/cs/http/index.mjs';
const rounds = Number(process.argv[3] ?? 7);
const extra = process.argv.slice(4).map((a) => a.replace("@N", String(Date.now())));
const aws = await startFakeAws({ cluster: { endpoint: 'https://127.0.0.1:1', caData: '' }, secret: { slackSigningSecret: 'b', slackBotToken: 'xoxb-b', alertmanagerToken: 'b' } });
const env = {
  PATH: process.env.PATH, TABLE_NAME: 'responder-state', QUEUE_URL: `${aws.url}/111122223333/jobs`,
  DEAD_LETTER_QUEUE_URL: `${aws.url}/111122223333/dead-letters`,
  SECRETS_ID: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder',
  OPERATOR_SECRET_ID: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder-operator',
  RESPONDER_CONFIG: './responder.config.json', POWERTOOLS_SERVICE_NAME: 'cilium-responder', AWS_REGION: 'eu-west-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.url,
  AWS_ENDPOINT_URL_DYNAMODB: aws.url, AWS_ENDPOINT_URL_SQS: aws.url,
};
const { spawn } = await import('node:child_process');
const run = (args: string[], cwd?: string) => new Promise<number>((resolve, reject) => {
  const t = performance.now();
  const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code) => code === 0 ? resolve(performance.now() - t) : reject(new Error(`exit ${code}`)));
});
const bare: number[] = []; const cold: number[] = [];
for (let i = 0; i < rounds; i++) {
  bare.push(await run(['-e', '0']));
  cold.push(await run([...extra, '--input-type=module', '-e', `await import(${JSON.stringify(file)})`], dirname(file)));
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(`bare ${med(bare).toFixed(1)} ms, cold ${med(cold).toFixed(1)} ms, ratio ${(med(cold)/med(bare)).toFixed(2)}; ratios ${cold.map((c, i) => (c / bare[i]).toFixed(2)).join(' ')}; load ${(await import('node:os')).loadavg().map(l=>l.toFixed(2)).join(' ')}`);
await aws.close();
