import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ResponderStack } from '../../cdk/responder-stack.ts';
import { CALLBACK_PATH } from '../../functions/console/slack-sign-in.ts';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { parseConfig } from '../../src/config/load.ts';
import { DEFAULT_SLASH_COMMAND } from '../../src/config/schema.ts';
import { appUnderTest } from '../functions/harness.ts';

const PLACEHOLDER = '<FunctionUrl>';
/** What the FunctionUrl output prints: Lambda's function URL, a full URL ending in `/`. */
const OUTPUT = 'https://abcdefghijklmnopqrstuvwxyz012345.lambda-url.eu-west-1.on.aws/';

/** Every URL the manifest gives Slack, at any depth. */
function urlsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.includes(PLACEHOLDER) || /^https?:/.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsOf);
  return [];
}

describe('the Slack app manifest', () => {
  const manifest = parse(readFileSync('slack-app-manifest.yaml', 'utf8'));
  const urls = [
    ...manifest.features.slash_commands.map((command: { url: string }) => command.url),
    manifest.settings.interactivity.request_url,
  ];
  const redirects: string[] = manifest.oauth_config.redirect_urls;

  it('gives Slack the FunctionUrl output as printed, followed by the path: one slash between', () => {
    expect(urlsOf(manifest).sort()).toEqual([...urls, ...redirects].sort());
    expect([...urls, ...redirects].map((url) => url.replace(PLACEHOLDER, OUTPUT))).toEqual([
      `${OUTPUT}slack/commands`,
      `${OUTPUT}slack/interactions`,
      `${OUTPUT}ui/auth/callback`,
    ]);
    for (const url of [...urls, ...redirects]) {
      expect(url.startsWith(PLACEHOLDER), url).toBe(true);
      expect(new URL(url.replace(PLACEHOLDER, OUTPUT)).pathname).toMatch(/^\/(slack|ui\/auth)\/[a-z]+$/);
    }
  });

  it("Sign in with Slack: the redirect URL is the console's callback, and the OpenID scopes are asked", () => {
    expect(redirects.map((url) => new URL(url.replace(PLACEHOLDER, OUTPUT)).pathname)).toEqual([
      CALLBACK_PATH,
    ]);
    expect(manifest.oauth_config.scopes.user).toEqual(['openid', 'profile']);
  });

  it('the stack outputs FunctionUrl as the function URL itself, which ends in /', () => {
    const stack = new ResponderStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Manifest', {
      responder: {
        config: parseConfig('clusters: [{ name: prod, eks: { name: prod, region: eu-west-1 } }]', 'x.yaml', {
          runbooks: RUNBOOK_IDS,
        }),
        configPath: 'x.yaml',
      },
    });
    const template = Template.fromStack(stack);
    const [url] = Object.keys(template.findResources('AWS::Lambda::Url'));
    template.hasOutput('FunctionUrl', { Value: { 'Fn::GetAtt': [url, 'FunctionUrl'] } });
  });

  it('names paths the http function serves (an unsigned request is refused, not unknown)', async () => {
    const { app } = appUnderTest();
    for (const url of urls) {
      const response = await app.request(url.replace(PLACEHOLDER, OUTPUT), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payload=%7B%7D',
      });
      expect(response.status, url).toBe(401);
    }
  });

  it('declares the slash command the config expects by default', () => {
    expect(manifest.features.slash_commands.map((c: { command: string }) => c.command)).toEqual([
      DEFAULT_SLASH_COMMAND,
    ]);
  });
});
