import { CfnOutput } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

/** Where the http function's routes are, below its URL (functions/http-app.ts; the Slack manifest names the same). */
export const HTTP_PATHS = {
  AlertmanagerUrl: 'alerts/alertmanager',
  SlackCommandsUrl: 'slack/commands',
  SlackInteractionsUrl: 'slack/interactions',
  SlackRedirectUrl: 'ui/auth/callback',
} as const;

export interface ResponderOutputs {
  url: string;
  secret: ISecret;
  operatorSecret: ISecret;
  alarmTopic: ITopic;
  workerRole: IRole | undefined;
}

/**
 * What a person needs after `cdk deploy` (the secrets to fill, the URLs for Alertmanager and the
 * Slack app, the alarm topic), as stack Outputs under fixed keys, so the documented
 * `describe-stacks --query "...[?OutputKey=='SecretsArn']..."` works whatever stack holds the
 * construct. One responder per stack: a second one's keys would clash, and synth says so.
 */
export function addOutputs(scope: Construct, parts: ResponderOutputs): void {
  const output = (key: string, value: string, description: string) =>
    new CfnOutput(scope, key, { value, description }).overrideLogicalId(key);
  output('FunctionUrl', parts.url, 'Alertmanager, Slack commands and interactivity, operator endpoints');
  output(
    'AlertmanagerUrl',
    `${parts.url}${HTTP_PATHS.AlertmanagerUrl}`,
    "Alertmanager's webhook_configs url (bearer: the alertmanagerToken in SecretsName)",
  );
  output(
    'SlackCommandsUrl',
    `${parts.url}${HTTP_PATHS.SlackCommandsUrl}`,
    "The Slack app's slash command Request URL (slack-app-manifest.yaml)",
  );
  output(
    'SlackInteractionsUrl',
    `${parts.url}${HTTP_PATHS.SlackInteractionsUrl}`,
    "The Slack app's interactivity Request URL (slack-app-manifest.yaml)",
  );
  output(
    'SlackRedirectUrl',
    `${parts.url}${HTTP_PATHS.SlackRedirectUrl}`,
    "The Slack app's OAuth Redirect URL: Sign in with Slack to the web console (slack-app-manifest.yaml)",
  );
  output(
    'SecretsArn',
    parts.secret.secretArn,
    'Put slackSigningSecret, slackBotToken, slackClientId and slackClientSecret here; alertmanagerToken is generated',
  );
  output('SecretsName', parts.secret.secretName, 'The same secret by name (aws secretsmanager --secret-id)');
  output(
    'OperatorTokenArn',
    parts.operatorSecret.secretArn,
    'The generated operatorToken (responder history/brake --server)',
  );
  output('OperatorTokenName', parts.operatorSecret.secretName, 'The same secret by name');
  output(
    'AlarmTopicArn',
    parts.alarmTopic.topicArn,
    'Every responder alarm notifies it: subscribe an address or AWS Chatbot',
  );
  output(
    'WorkerRoleArn',
    parts.workerRole?.roleArn ?? '',
    'Map it into clusters in other accounts (their role trusts it)',
  );
}
