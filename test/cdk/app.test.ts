import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFile } from '../../cdk/config-file.ts';

const APP = resolve('cdk/app.ts');
const TSX = resolve('node_modules/tsx/dist/cli.mjs');

/** `cdk synth` runs the app as cdk.json says, with its context in CDK_CONTEXT_JSON. */
function synth(context: Record<string, unknown>, cwd = mkdtempSync(join(tmpdir(), 'responder-synth-'))) {
  const outdir = mkdtempSync(join(tmpdir(), 'responder-cdk-out-'));
  const run = spawnSync(process.execPath, [TSX, APP], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      // No bundling: these look at the template, not the functions' code.
      CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], ...context }),
      CDK_OUTDIR: outdir,
      RESPONDER_CONFIG: '',
    },
    timeout: 150_000,
  });
  const template = (stack: string) =>
    JSON.parse(readFileSync(join(outdir, `${stack}.template.json`), 'utf8')) as {
      Rules?: Record<string, { Assertions: { AssertDescription: string }[] }>;
    };
  return { status: run.status, stderr: run.stderr, outdir, template };
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
      `${path}:4: clusters.0.sim: cluster "lab" uses sim, which the deployed functions cannot reach: give it eks: { name, region } (and roleArn for another account), or leave it out of the deployed config`,
    );
    expect(lines[1]).toMatch(
      new RegExp(`^${path}:6: clusters\\.1\\.kubeconfig: cluster "dev" uses kubeconfig`),
    );
  }, 60_000);

  it('two config clusters on one EKS cluster: the second, by file, line and field', () => {
    const path = configIn(`
clusters:
  - name: prod
    eks: { name: prod-eks, region: eu-west-1 }
  - name: prod-again
    eks: { name: prod-eks, region: eu-west-1 }
`);
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `${path}:6: clusters.1.eks.name: EKS cluster prod-eks in eu-west-1 is cluster "prod" already: give each EKS cluster one name, so its lease and brake are one`,
    ]);
  }, 60_000);

  it('two EKS names that differ only by a dash, in a region with a stack of its own: one line', () => {
    const path = configIn(`
deploy: { region: us-east-1 }
clusters:
  - name: prod
    eks: { name: prod-eks, region: eu-west-1 }
  - name: other
    eks: { name: prodeks, region: eu-west-1 }
`);
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `${path}:7: clusters.1.eks.name: EKS clusters prod-eks and prodeks in eu-west-1 differ only by dashes or underscores, so their access entries would share one CloudFormation id in the stack for eu-west-1: set deploy.region to eu-west-1, where the responder's own stack keeps them apart`,
    ]);
  }, 60_000);

  it('a schedule whose EventBridge Scheduler name would pass 64 characters', () => {
    const long = 'nightly-compliance-sweep-of-every-production-cl';
    const path = configIn(`
clusters:
  - name: prod
    eks: { name: prod, region: eu-west-1 }
schedules:
  - name: ${long}x
    expression: rate(1 day)
`);
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `${path}:6: schedules.0.name: at most 47 characters: its EventBridge Scheduler schedule, cilium-responder-<name>, may have 64`,
    ]);
    // 47 is allowed: cilium-responder-<47> is exactly 64.
    expect(`cilium-responder-${long}`).toHaveLength(64);
  }, 60_000);

  it('names AWS would refuse: an EKS name, a role name, an alarm name, each by file, line and field', () => {
    const path = configIn(`
clusters:
  - name: prod
    eks: { name: prod.eks, region: eu-west-1 }
  - name: other
    eks:
      name: other
      region: eu-west-1
      roleArn: arn:aws:iam::123456789012:role/${'r'.repeat(65)}
routes:
  - match: { source: cloudwatch, alarmName: ${'a'.repeat(256)} }
    cluster: prod
    runbook: tunnel-datapath
`);
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `${path}:4: clusters.0.eks.name: EKS cluster name "prod.eks" is not one EKS allows: 1 to 100 letters, digits, - and _, starting with a letter or digit`,
      `${path}:9: clusters.1.eks.roleArn: role name "${'r'.repeat(65)}" is 65 characters; IAM allows at most 64 letters, digits and +=,.@_-`,
      `${path}:11: routes.0.match.alarmName: alarm name is 256 characters; CloudWatch allows at most 255`,
    ]);
  }, 60_000);

  it('alarm routes whose EventBridge rule would pass 2,048 characters: the route that passes it', () => {
    const routes = Array.from(
      { length: 12 },
      (
        _,
        i,
      ) => `  - match: { source: cloudwatch, alarmName: cilium-${String(i).padStart(2, '0')}-${'x'.repeat(150)} }
    cluster: prod
    runbook: tunnel-datapath`,
    ).join('\n');
    const path = configIn(`
clusters:
  - name: prod
    eks: { name: prod, region: eu-west-1 }
routes:
${routes}
`);
    const run = synth({ config: path });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${path}:\\d+: routes\\.11\\.match\\.alarmName: with this alarm the EventBridge rule for the routes' alarm names would be \\d+ characters; an event pattern may have 2048`,
      ),
    );
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

describe('the example synthesizes, and its template refuses to be deployed', () => {
  it('is its own stack, whose Rules CloudFormation checks before changing anything; a team stack has none', () => {
    const example = synth({ example: 'true' }, process.cwd());
    expect(example.status, example.stderr).toBe(0);
    expect(existsSync(join(example.outdir, 'CiliumResponder.template.json'))).toBe(false);
    const rule = example.template('CiliumResponderExample').Rules?.ExampleIsNotDeployed;
    expect(rule?.Assertions[0]).toEqual({
      Assert: { 'Fn::Equals': [{ Ref: 'AWS::StackName' }, ''] },
      AssertDescription: expect.stringMatching(/^This is the template of responder.config.example.yaml/),
    });

    const team = synth(
      { config: configIn('clusters:\n  - name: prod\n    eks: { name: prod, region: eu-west-1 }\n') },
      process.cwd(),
    );
    expect(team.status, team.stderr).toBe(0);
    expect(Object.keys(team.template('CiliumResponder').Rules ?? {})).toEqual(['CheckBootstrapVersion']);
  }, 300_000);
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
