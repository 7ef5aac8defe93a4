import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFile } from '../../cdk/config-file.ts';

const APP = resolve('cdk/app.ts');
const TSX = resolve('node_modules/tsx/dist/cli.mjs');

/** `cdk synth` runs the app as cdk.json says, with its context in CDK_CONTEXT_JSON. */
function synth(context: Record<string, unknown>, cwd = mkdtempSync(join(tmpdir(), 'responder-synth-'))) {
  const run = spawnSync(process.execPath, [TSX, APP], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), RESPONDER_CONFIG: '' },
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}

function configIn(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'responder-config-')), 'responder.config.yaml');
  writeFileSync(path, text);
  return path;
}

describe('cdk synth refuses what cannot deploy, in one line and without a stack trace', () => {
  it('no config file: says to copy the example (and how to synthesize the example anyway)', () => {
    const run = synth({});
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'no responder.config.yaml: copy responder.config.example.yaml to it and name your EKS clusters (or pass -c config=<file>; -c example=true synthesizes the example as is)',
    ]);
  }, 60_000);

  it('a sim or kubeconfig cluster: names it and says to use eks', () => {
    const path = configIn(`
clusters:
  - name: lab
    sim: { scenarios: [all] }
  - name: dev
    kubeconfig: { context: kind-cilium }
`);
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `${path}: cluster "lab" uses sim, which the deployed functions cannot reach: give it eks: { name, region } (and roleArn for another account), or leave it out of the deployed config`,
    );
    expect(lines[1]).toMatch(/cluster "dev" uses kubeconfig/);
  }, 60_000);

  it('a config error: its file, line and field, nothing else', () => {
    const path = configIn(
      'clusters:\n  - name: prod\n    eks: { name: prod, region: eu-west-1 }\ndeploy:\n  logRetentionDays: 10\n',
    );
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^${path}:5: deploy\\.logRetentionDays`));
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('configFile', () => {
  const none = () => false;
  it('takes the example only when asked to', () => {
    expect(configFile({ example: 'true' }, {}, none)).toEqual({
      path: resolve('responder.config.example.yaml'),
      example: true,
    });
    expect(() => configFile({ example: 'false' }, {}, none)).toThrow(/no responder.config.yaml/);
  });

  it('prefers the context, then $RESPONDER_CONFIG, then responder.config.yaml', () => {
    expect(configFile({ config: 'a.yaml' }, { RESPONDER_CONFIG: 'b.yaml' }, none).path).toBe(
      resolve('a.yaml'),
    );
    expect(configFile({}, { RESPONDER_CONFIG: 'b.yaml' }, none).path).toBe(resolve('b.yaml'));
    expect(configFile({ example: 'true' }, {}, () => true)).toEqual({
      path: resolve('responder.config.yaml'),
      example: false,
    });
  });
});
