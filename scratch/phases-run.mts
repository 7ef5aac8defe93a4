import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { startFakeAws } from '../test/helpers/fake-aws.ts';
const aws = await startFakeAws({ cluster: { endpoint: 'https://127.0.0.1:1', caData: '' }, secret: { slackSigningSecret: 'b', slackBotToken: 'xoxb-b', alertmanagerToken: 'b' } });
const file = process.argv[2]!;
const env = { PATH: process.env.PATH, AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'A', AWS_SECRET_ACCESS_KEY: 'B', SECRETS_ID: 'a', OPERATOR_SECRET_ID: 'b', QUEUE_URL: `${aws.url}/1/q`, AWS_ENDPOINT_URL: aws.url, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
const { spawn } = await import('node:child_process');
for (let i = 0; i < Number(process.argv[3] ?? 5); i++) {
  const out = await new Promise<string>((res) => { let s = ''; const c = spawn(process.execPath, [file], { env, cwd: dirname(file) }); c.stdout.on('data', (d) => (s += d)); c.on('exit', () => res(s)); });
  console.log(out.trim().split('\n').pop());
}
await aws.close();
