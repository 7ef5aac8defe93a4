import { dirname } from 'node:path';
import { functionUrlEvent } from '../test/helpers/rehearsal.ts';
import { lastJsonLine, runMeasured } from './processes.ts';

/** The bearer token the bench's secret holds (bench/bundles.ts). */
export const BENCH_WEBHOOK_TOKEN = 'bench';

/** An Alertmanager notification the bench config routes to a run on prod-eu. */
const NOTIFICATION = JSON.stringify({
  version: '4',
  status: 'firing',
  receiver: 'cilium-responder',
  groupKey: '{}:{alertname="CiliumUnmanagedPods", cluster="prod-eu"}',
  truncatedAlerts: 0,
  groupLabels: { alertname: 'CiliumUnmanagedPods' },
  commonLabels: { alertname: 'CiliumUnmanagedPods', cluster: 'prod-eu' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'CiliumUnmanagedPods', cluster: 'prod-eu' },
      annotations: { summary: 'pods without a CiliumEndpoint' },
      startsAt: '2026-11-24T05:00:00Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus:9090/graph',
      fingerprint: 'c0ffee0123456789',
    },
  ],
});

const EVENT = functionUrlEvent(
  'POST',
  '/alerts/alertmanager',
  { 'content-type': 'application/json', authorization: `Bearer ${BENCH_WEBHOOK_TOKEN}` },
  NOTIFICATION,
);

/**
 * A fresh process that imports the http bundle (its cold start) and hands it one Alertmanager
 * webhook, as the first invocation after a cold start: the request admits a run in the table and
 * queues it, so it builds the SDK's DynamoDB and SQS clients and makes their first calls. Answers
 * the process's wall time once the handler answered 202 with one run queued.
 */
export async function coldStartAndFirstWebhook(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const script = `const { handler } = await import(${JSON.stringify(file)});
const answer = await handler(${JSON.stringify(EVENT)});
process.stdout.write(JSON.stringify({ status: answer.statusCode, queued: JSON.parse(answer.body).queued?.length }));`;
  const run = await runMeasured(process.execPath, ['--input-type=module', '-e', script], {
    env,
    cwd: dirname(file),
  });
  const answer = lastJsonLine<{ status: number; queued?: number }>(run.stdout);
  if (answer.status !== 202 || answer.queued !== 1)
    throw new Error(`the first webhook after a cold start was not queued: ${run.stdout.slice(-500)}`);
  return run.seconds;
}
