import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { lambdaEdge, lambdaRuntime } from '../../functions/runtime.ts';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { deployedConfigText } from '../../src/config/deployed-text.ts';
import { loadConfig } from '../../src/config/load.ts';
import { startFakeAws } from '../helpers/fake-aws.ts';

const MAIN = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:ResponderSecrets';
const OPERATOR = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:ResponderOperatorToken';
/** SecretString by SecretId, as Secrets Manager (the local stand-in) holds them. */
const held = new Map<string, string>();
const secretsManager = await startFakeAws({
  cluster: { endpoint: 'https://127.0.0.1:1', caData: '' },
  secrets: held,
});
const saved = { ...process.env };

/** The JSON lines Powertools' logger writes while `work` runs. */
async function logged<T>(work: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const capture = (chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
  for (const spy of spies) spy.mockImplementation(capture);
  try {
    return { result: await work(), lines };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

function secrets(values: Record<string, string>) {
  held.clear();
  for (const [id, text] of Object.entries(values)) held.set(id, text);
}

describe('lambdaRuntime and its secrets', () => {
  /** The example config as the stack ships it. */
  let configPath: string;
  beforeAll(async () => {
    configPath = join(mkdtempSync(join(tmpdir(), 'runtime-')), 'responder.config.json');
    const example = await loadConfig('responder.config.example.yaml', { runbooks: RUNBOOK_IDS });
    writeFileSync(configPath, deployedConfigText(example));
  });
  afterAll(() => secretsManager.close());
  beforeEach(() => {
    Object.assign(process.env, {
      TABLE_NAME: 'state',
      QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/111122223333/jobs',
      DEAD_LETTER_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/111122223333/dead',
      SECRETS_ID: MAIN,
      OPERATOR_SECRET_ID: OPERATOR,
      RESPONDER_CONFIG: configPath,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.url,
    });
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it('merges both secrets, and says once which needed fields are empty, naming their secret', async () => {
    secrets({
      [MAIN]: JSON.stringify({ slackSigningSecret: '', slackBotToken: '', alertmanagerToken: 'am' }),
      [OPERATOR]: JSON.stringify({ operatorToken: 'op' }),
    });
    const { result, lines } = await logged(() =>
      lambdaRuntime(['slackSigningSecret', 'slackBotToken', 'alertmanagerToken', 'operatorToken']),
    );
    expect(result.secrets).toEqual({
      slackSigningSecret: '',
      slackBotToken: '',
      alertmanagerToken: 'am',
      operatorToken: 'op',
    });
    expect(result.secretSources.operatorToken).toBe(`secret ${OPERATOR}`);
    const warnings = lines.filter((line) => line.level === 'WARN');
    expect(warnings.map((line) => line.message)).toEqual([
      `secret fields empty or missing: slackSigningSecret (secret ${MAIN}), slackBotToken (secret ${MAIN})`,
    ]);
  });

  it('a secret that is not JSON (the old shape) still starts the function, and says what to put', async () => {
    delete process.env.OPERATOR_SECRET_ID;
    secrets({ [MAIN]: 'aB3-not-json' });
    const { result, lines } = await logged(() => lambdaRuntime());
    expect(result.secrets).toEqual({});
    expect(lines.filter((line) => line.level === 'ERROR').map((line) => line.message)).toEqual([
      `secret ${MAIN} is not a JSON object: put {"slackSigningSecret": ..., "slackBotToken": ...} there`,
    ]);
    expect(lines.filter((line) => line.level === 'WARN').map((line) => line.message)).toEqual([
      `secret fields empty or missing: slackBotToken (secret ${MAIN})`,
    ]);
  });

  it('reads both secrets in one call, signed for Secrets Manager in its region, with no SDK client', async () => {
    secrets({
      [MAIN]: JSON.stringify({ alertmanagerToken: 'am' }),
      [OPERATOR]: JSON.stringify({ operatorToken: 'op' }),
    });
    const before = secretsManager.calls.length;
    await logged(() => lambdaRuntime());
    expect(secretsManager.calls.slice(before)).toEqual([
      {
        service: 'secretsmanager',
        region: 'eu-west-1',
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        action: 'BatchGetSecretValue',
      },
    ]);
  });

  it('a secret Secrets Manager does not have stops the cold start, naming it', async () => {
    secrets({ [MAIN]: JSON.stringify({ alertmanagerToken: 'am' }) });
    await expect(logged(() => lambdaRuntime())).rejects.toThrow(
      `secret ${OPERATOR} could not be read: ResourceNotFoundException: Secrets Manager can't find the specified secret.`,
    );
  });

  it("the http function's cold start builds no core; a config naming a runbook it does not know fails the core's build, named, and the other functions' cold start", async () => {
    secrets({
      [MAIN]: JSON.stringify({ alertmanagerToken: 'am' }),
      [OPERATOR]: JSON.stringify({ operatorToken: 'op' }),
    });
    const stale = join(mkdtempSync(join(tmpdir(), 'runtime-')), 'responder.config.json');
    const example = await loadConfig('responder.config.example.yaml', { runbooks: RUNBOOK_IDS });
    const route = { match: { alertname: 'Gone' }, runbook: 'retired-runbook' };
    writeFileSync(
      stale,
      deployedConfigText(example).replace('"routes":[', `"routes":[${JSON.stringify(route)},`),
    );
    process.env.RESPONDER_CONFIG = stale;
    const { result: edge } = await logged(() => lambdaEdge());
    expect(edge.config.routes.map((r) => r.runbook)).toContain('retired-runbook');
    const unknown = new RegExp(`${stale}: routes\\.0\\.runbook: .*retired-runbook`);
    await expect(edge.loadApp()).rejects.toThrow(unknown);
    await expect(logged(() => lambdaRuntime())).rejects.toThrow(unknown);
  });

  it('builds the core with the first call to loadApp, once', async () => {
    secrets({
      [MAIN]: JSON.stringify({ alertmanagerToken: 'am' }),
      [OPERATOR]: JSON.stringify({ operatorToken: 'op' }),
    });
    const { result: edge } = await logged(() => lambdaEdge());
    const [first, second] = await Promise.all([edge.loadApp(), edge.loadApp()]);
    expect(first).toBe(second);
    expect(first.ports.runbookIds).toEqual(RUNBOOK_IDS);
    expect(first.ports.config).toBe(edge.config);
  });
});
