import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CiliumResponder } from '../../cdk/cilium-responder.ts';
import { HTTP_PATHS } from '../../cdk/outputs.ts';
import { CALLBACK_PATH } from '../../functions/console/slack-sign-in.ts';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { parseConfig } from '../../src/config/load.ts';
import { ALERTMANAGER_TOKEN, appUnderTest } from '../functions/harness.ts';

/** A team's stack as docs/runbooks.md builds it: a plain Stack holding the construct. */
function teamTemplate(): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'TeamResponder', { env: { region: 'eu-west-1' } });
  const config = parseConfig(
    'clusters: [{ name: prod-eu, eks: { name: prod-eu, region: eu-west-1 } }]',
    'x.yaml',
    {
      runbooks: RUNBOOK_IDS,
    },
  );
  new CiliumResponder(stack, 'Responder', { config, configPath: 'x.yaml' });
  return Template.fromStack(stack);
}

const idOf = (template: Template, type: string) => {
  const [id, ...more] = Object.keys(template.findResources(type));
  expect(more).toEqual([]);
  return id as string;
};

describe("the construct's stack Outputs: what the post-deploy steps read", () => {
  const template = teamTemplate();
  const url = { 'Fn::GetAtt': [idOf(template, 'AWS::Lambda::Url'), 'FunctionUrl'] };
  const [secret, operator] = Object.entries(template.findResources('AWS::SecretsManager::Secret'))
    .sort(([, a]) => (String(a.Properties.Description).includes('operatorToken') ? 1 : -1))
    .map(([id]) => id);

  it('gives the URLs Alertmanager and the Slack app are pointed at, under fixed keys', () => {
    template.hasOutput('FunctionUrl', { Value: url });
    for (const [key, path] of Object.entries(HTTP_PATHS))
      template.hasOutput(key, { Value: { 'Fn::Join': ['', [url, path]] } });
  });

  it('names the secrets to fill and read (ARN and name), the alarm topic and the worker role', () => {
    template.hasOutput('SecretsArn', { Value: { Ref: secret } });
    template.hasOutput('OperatorTokenArn', { Value: { Ref: operator } });
    const outputs = template.findOutputs('*');
    expect(JSON.stringify(outputs.SecretsName?.Value)).toContain(secret);
    expect(JSON.stringify(outputs.OperatorTokenName?.Value)).toContain(operator);
    template.hasOutput('AlarmTopicArn', { Value: { Ref: idOf(template, 'AWS::SNS::Topic') } });
    expect(JSON.stringify(outputs.WorkerRoleArn?.Value)).toContain('WorkerRole');
  });

  it("the URLs' paths are the ones the http function serves and the Slack manifest names", async () => {
    const manifest = parse(readFileSync('slack-app-manifest.yaml', 'utf8'));
    expect([
      manifest.features.slash_commands[0].url,
      manifest.settings.interactivity.request_url,
      ...manifest.oauth_config.redirect_urls,
    ]).toEqual([
      `<FunctionUrl>${HTTP_PATHS.SlackCommandsUrl}`,
      `<FunctionUrl>${HTTP_PATHS.SlackInteractionsUrl}`,
      `<FunctionUrl>${HTTP_PATHS.SlackRedirectUrl}`,
    ]);
    expect(`/${HTTP_PATHS.SlackRedirectUrl}`).toBe(CALLBACK_PATH);
    const { app } = appUnderTest();
    const alerts = await app.request(`/${HTTP_PATHS.AlertmanagerUrl}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
      body: JSON.stringify({ version: '4', status: 'firing', alerts: [] }),
    });
    expect(alerts.status).not.toBe(404);
    for (const path of [HTTP_PATHS.SlackCommandsUrl, HTTP_PATHS.SlackInteractionsUrl]) {
      const slack = await app.request(`/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payload=%7B%7D',
      });
      expect(slack.status, path).toBe(401);
    }
  });
});
