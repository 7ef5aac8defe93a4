import type { Metrics } from '@aws-lambda-powertools/metrics';
import { handle } from 'hono/aws-lambda';
import { awsConsole, CONSOLE_FIELDS } from './console/aws-console.ts';
import { createHttpApp } from './http-app.ts';
import { lambdaEdge } from './runtime.ts';

const runtime = await lambdaEdge([
  'slackSigningSecret',
  'slackBotToken',
  'alertmanagerToken',
  ...CONSOLE_FIELDS,
]);
const source = runtime.secretSources;
/**
 * CloudWatch metrics (EMF): the stack alarms on bodies refused for their size. Loaded with the first
 * refusal: the cold start of every other request does without it.
 */
let metrics: Metrics | undefined;
const loadMetrics = async () => {
  const { Metrics } = await import('@aws-lambda-powertools/metrics');
  return new Metrics({ namespace: 'CiliumResponder', serviceName: 'cilium-responder' });
};

/**
 * Function URL → the hono app: verify, parse, admit, enqueue, answer (503 naming a missing secret
 * field); the web console under /ui once the Slack app's client id and secret are put.
 */
export const handler = handle(
  createHttpApp({
    app: runtime.loadApp,
    secrets: runtime.secrets,
    console: awsConsole(runtime.secrets, runtime.config.slack.teamId, runtime.env.slackOidcIssuer),
    servedAt: runtime.consoleUrl.servedAt,
    secretNames: {
      slackSigningSecret: `slackSigningSecret in ${source.slackSigningSecret}`,
      alertmanagerToken: `alertmanagerToken in ${source.alertmanagerToken}`,
      operatorToken: `operatorToken in ${source.operatorToken}`,
    },
    // A sender whose alerts were refused retries and gives up: said in the log and on the alarm topic.
    onTooLarge: async ({ path, limit }) => {
      runtime.log.warn(`refused a request body over ${limit} bytes (413) on ${path}`, {
        path,
        limit,
      });
      metrics ??= await loadMetrics();
      metrics.addMetric('RequestsTooLarge', 'Count', 1);
      metrics.publishStoredMetrics();
    },
  }),
);
