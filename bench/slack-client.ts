// A bench child: `count` signed slash commands sent at once to a local server, from a process of
// its own (so the server's event loop is not the client's). Prints their latencies (ms) as JSON.
import { createHmac } from 'node:crypto';

const [url, secret, count, round] = process.argv.slice(2);

async function ack(n: number): Promise<number> {
  const body = new URLSearchParams({
    command: '/cilium',
    text: 'run unmanaged-pods on bench',
    user_id: 'U0BENCH',
    user_name: 'bench',
    team_id: 'T0BENCH',
    channel_id: 'C0BENCH',
    trigger_id: `${round}.${n}.bench`,
    response_url: 'https://hooks.slack.com/commands/T0BENCH/1/bench',
    token: 'deprecated',
  }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', secret as string)
    .update(`v0:${timestamp}:${body}`)
    .digest('hex')}`;
  const started = performance.now();
  const response = await fetch(`${url}/slack/commands`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
    body,
  });
  await response.text();
  if (response.status !== 200) throw new Error(`ack ${response.status}`);
  return performance.now() - started;
}

const latencies = await Promise.all(Array.from({ length: Number(count) }, (_, n) => ack(n)));
process.stdout.write(`${JSON.stringify(latencies)}\n`);
