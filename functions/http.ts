import { handle } from 'hono/aws-lambda';
import { createHttpApp } from './http-app.ts';
import { lambdaRuntime } from './runtime.ts';

const runtime = await lambdaRuntime([
  'slackSigningSecret',
  'slackBotToken',
  'alertmanagerToken',
  'operatorToken',
]);
const source = runtime.secretSources;

/** Function URL → the hono app: verify, parse, admit, enqueue, answer (503 naming a missing secret field). */
export const handler = handle(
  createHttpApp({
    app: runtime.app,
    secrets: runtime.secrets,
    secretNames: {
      slackSigningSecret: `slackSigningSecret in ${source.slackSigningSecret}`,
      alertmanagerToken: `alertmanagerToken in ${source.alertmanagerToken}`,
      operatorToken: `operatorToken in ${source.operatorToken}`,
    },
  }),
);
