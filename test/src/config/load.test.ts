import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { ConfigError, loadConfig, parseConfig } from '../../../src/config/load.ts';

const EXAMPLE = fileURLToPath(new URL('../../../responder.config.example.yaml', import.meta.url));
const RUNBOOK_IDS = RUNBOOKS.map((runbook) => runbook.id);

/** A minimal valid config (three lines) that the cases below extend. */
const BASE = ['clusters:', '  - name: sim', '    sim: { scenarios: [all] }'];

const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** The ConfigError `parseConfig` throws for `text`, read as if from `demo.yaml`. */
function errorOf(text: string, options: { runbooks?: readonly string[] } = {}): string {
  try {
    parseConfig(text, 'demo.yaml', options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError, but the config parsed');
}

/** Uncomments the commented-out list item that starts with `  # - name: <name>`, up to the next blank line. */
function uncommentCluster(text: string, name: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`  # - name: ${name}`);
  expect(start, `commented-out cluster ${name}`).toBeGreaterThan(0);
  for (let i = start; i < lines.length && lines[i]?.startsWith('  # '); i++) {
    lines[i] = `  ${lines[i]?.slice(4)}`;
  }
  return lines.join('\n');
}

describe('the example config', () => {
  it('loads with the known runbooks and points at the simulator', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    expect(config.clusters).toEqual([
      {
        name: 'sim',
        sim: { scenarios: ['all'] },
        ciliumNamespace: 'kube-system',
        channel: '#cilium-incidents',
        params: { 'host-identity': { monitorSeconds: 2 } },
      },
    ]);
    expect(config.schedules).toEqual([
      { name: 'nightly', expression: 'cron(0 3 * * ? *)', mode: 'dry-run', whenClean: 'line' },
    ]);
    expect(config.limits.dedupeMinutes).toBeGreaterThanOrEqual(10);
    for (const ids of Object.values(config.approvers)) {
      for (const id of ids) expect(id).toMatch(/^[US][A-Z0-9]+$/);
    }
  });

  it('routes every alert name each runbook answers to that runbook, and nothing else', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const alertRoutes = config.routes.filter((route) => route.match.source === 'alertmanager');
    for (const runbook of RUNBOOKS) {
      const named = alertRoutes
        .filter((route) => route.runbook === runbook.id)
        .flatMap((route) => [route.match.alertname ?? []].flat());
      expect(named.sort(), runbook.id).toEqual([...runbook.answers].sort());
    }
    expect(alertRoutes.map((route) => route.runbook).sort()).toEqual([...RUNBOOK_IDS].sort());
  });

  it('routes one CloudWatch alarm by name, its cluster taken from the alarm', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const alarmRoutes = config.routes.filter((route) => route.match.source === 'cloudwatch');
    expect(alarmRoutes).toHaveLength(1);
    expect(alarmRoutes[0]?.match.alarmName).toBeTruthy();
    expect(alarmRoutes[0]?.cluster).toBeUndefined();
  });

  it('restarts Cilium agents only with a person, and sweeps only report', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const hostIdentity = config.routes.filter((route) => route.runbook === 'host-identity');
    expect(hostIdentity.map((route) => route.mode)).toEqual(['approve']);
    // Only unmanaged-pods may act on its own (evictions within the caps, PDBs hold).
    const auto = config.routes.filter((route) => route.mode === 'auto').map((route) => route.runbook);
    expect(auto.filter((runbook) => runbook !== 'unmanaged-pods')).toEqual([]);
    expect(config.schedules.map((schedule) => schedule.mode)).toEqual(['dry-run']);
    expect(config.limits.maxAgentRestartsPerRun).toBeLessThanOrEqual(1);
    expect(config.approvers['host-identity'] ?? config.approvers['*']).toBeDefined();
  });

  it('has commented-out eks and kubeconfig clusters that load when uncommented', async () => {
    const text = await readFile(EXAMPLE, 'utf8');
    const config = parseConfig(uncommentCluster(uncommentCluster(text, 'prod-eu'), 'dev'), EXAMPLE, {
      runbooks: RUNBOOK_IDS,
    });
    const eks = config.clusters.find((cluster) => cluster.name === 'prod-eu');
    expect(eks?.eks).toEqual({
      name: 'example-cluster',
      region: 'eu-west-1',
      roleArn: 'arn:aws:iam::111122223333:role/cilium-responder',
    });
    const dev = config.clusters.find((cluster) => cluster.name === 'dev');
    expect(dev?.kubeconfig?.path).toBeTruthy();
    expect(config.clusters.map((cluster) => cluster.name)).toEqual(['sim', 'prod-eu', 'dev']);
  });
});

describe('parseConfig', () => {
  it('fills in the defaults for a minimal config', () => {
    const config = parseConfig(yaml(...BASE));
    expect(config.routes).toEqual([]);
    expect(config.schedules).toEqual([]);
    expect(config.approvers).toEqual({});
    expect(config.clusters[0]?.ciliumNamespace).toBe('kube-system');
    expect(config.limits).toEqual({
      maxEvictionsPerRun: 10,
      maxAgentRestartsPerRun: 1,
      excludeSelectors: [],
      gracePeriodSeconds: 60,
      brake: { maxWrites: 20, windowMinutes: 15 },
      dedupeMinutes: 15,
      leaseSeconds: 60,
      approvalMinutes: 30,
    });
  });

  it('names the line of a YAML syntax error', () => {
    const message = errorOf(yaml(...BASE, '    channel: a: b', 'routes: []'));
    expect(message).toMatch(/^demo\.yaml:4: /);
    expect(message).toContain('Nested mappings are not allowed');
  });

  it('names the line of a tab used for indentation', () => {
    expect(errorOf(yaml(...BASE, 'limits:', '\tdedupeMinutes: 20'))).toMatch(/^demo\.yaml:5: .*[Tt]ab/);
  });

  it('names an unknown key and its own line, not the line of the map that holds it', () => {
    expect(errorOf(yaml(...BASE, 'limits:', '  maxEvictionsPerRun: 3', '  dedupeMinute: 20'))).toBe(
      'demo.yaml:6: limits.dedupeMinute: unknown key',
    );
    expect(errorOf(yaml(...BASE, 'limits:', '  brake:', '    maxWrites: 3', '    windw: 5'))).toBe(
      'demo.yaml:7: limits.brake.windw: unknown key',
    );
  });

  it('names an unknown top-level key at its line', () => {
    expect(errorOf(yaml(...BASE, 'limit:', '  dedupeMinutes: 20'))).toBe('demo.yaml:4: limit: unknown key');
  });

  it('rejects a cluster that sets both eks and sim, at the cluster', () => {
    const message = errorOf(
      yaml(
        'clusters:',
        '  - name: sim',
        '    sim: { scenarios: [all] }',
        '  - name: prod',
        '    eks: { name: example-cluster, region: eu-west-1 }',
        '    sim: { scenarios: [all] }',
      ),
    );
    expect(message).toBe('demo.yaml:4: clusters.1: set exactly one of eks, kubeconfig or sim');
  });

  it('rejects a cluster that sets none of eks, kubeconfig or sim', () => {
    expect(errorOf(yaml('clusters:', '  - name: prod', '    channel: "#ops"'))).toBe(
      'demo.yaml:2: clusters.0: set exactly one of eks, kubeconfig or sim',
    );
  });

  it('rejects a bad region at its line', () => {
    const message = errorOf(
      yaml('clusters:', '  - name: prod', '    eks:', '      name: example-cluster', '      region: Ireland'),
    );
    expect(message).toBe('demo.yaml:5: clusters.0.eks.region: an AWS region such as eu-west-1');
  });

  it('rejects a role ARN that is not an IAM role ARN', () => {
    const message = errorOf(
      yaml(
        'clusters:',
        '  - name: prod',
        '    eks:',
        '      name: example-cluster',
        '      region: eu-west-1',
        '      roleArn: arn:aws:iam::1111:role/short-account-id',
      ),
    );
    expect(message).toBe('demo.yaml:6: clusters.0.eks.roleArn: an IAM role ARN');
    expect(() =>
      parseConfig(
        yaml(
          'clusters:',
          '  - name: prod',
          '    eks:',
          '      name: example-cluster',
          '      region: us-gov-west-1',
          '      roleArn: arn:aws-us-gov:iam::111122223333:role/responder',
        ),
      ),
    ).not.toThrow();
  });

  it('rejects a dedupe window under 10 minutes, saying why', () => {
    const message = errorOf(yaml(...BASE, 'limits:', '  dedupeMinutes: 5'));
    expect(message).toMatch(/^demo\.yaml:5: limits\.dedupeMinutes: at least 10 minutes/);
    expect(parseConfig(yaml(...BASE, 'limits:', '  dedupeMinutes: 10')).limits.dedupeMinutes).toBe(10);
  });

  it('rejects a cluster name used twice, at the second one', () => {
    const message = errorOf(yaml(...BASE, '  - name: sim', '    kubeconfig: { path: /etc/kubeconfig }'));
    expect(message).toBe('demo.yaml:4: clusters.1.name: cluster name "sim" is used twice');
  });

  it('rejects a route naming a cluster that is not configured', () => {
    const message = errorOf(
      yaml(
        ...BASE,
        'routes:',
        '  - match: { alertname: X }',
        '    runbook: unmanaged-pods',
        '    cluster: prod',
      ),
    );
    expect(message).toBe('demo.yaml:7: routes.0.cluster: no cluster named "prod"');
  });

  it('rejects a schedule naming a cluster that is not configured', () => {
    const message = errorOf(
      yaml(
        ...BASE,
        'schedules:',
        '  - name: nightly',
        '    expression: rate(1 day)',
        '    clusters: [sim, prod]',
      ),
    );
    expect(message).toBe('demo.yaml:7: schedules.0.clusters.1: no cluster named "prod"');
  });

  it('rejects an unknown runbook when the runbooks are given, and accepts `all`', () => {
    const text = yaml(...BASE, 'routes:', '  - match: { alertname: X }', '    runbook: unmanaged-pod');
    expect(errorOf(text, { runbooks: RUNBOOK_IDS })).toBe(
      `demo.yaml:6: routes.0.runbook: unknown runbook "unmanaged-pod"; known: ${RUNBOOK_IDS.join(', ')}`,
    );
    // Without the runbooks option only the shape is checked.
    expect(() => parseConfig(text)).not.toThrow();
    const all = yaml(...BASE, 'routes:', '  - match: { alertname: X }', '    runbook: all');
    expect(() => parseConfig(all, 'demo.yaml', { runbooks: RUNBOOK_IDS })).not.toThrow();
  });

  it('rejects an unknown runbook in a schedule', () => {
    const text = yaml(
      ...BASE,
      'schedules:',
      '  - name: nightly',
      '    expression: cron(0 3 * * ? *)',
      '    runbooks: [host-identity, nope]',
    );
    expect(errorOf(text, { runbooks: RUNBOOK_IDS })).toMatch(
      /^demo\.yaml:7: schedules\.0\.runbooks\.1: unknown runbook "nope"/,
    );
  });

  it('reports every problem, each on its own line', () => {
    const message = errorOf(yaml(...BASE, 'limits:', '  dedupeMinutes: 5', '  leaseSeconds: 5'));
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/^demo\.yaml:5: limits\.dedupeMinutes: /),
      expect.stringMatching(/^demo\.yaml:6: limits\.leaseSeconds: /),
    ]);
  });

  it("takes the Slack workspace's team id the console admits, and names the field when it is not one", () => {
    expect(parseConfig(yaml(...BASE, 'slack:', '  teamId: T0123ABCD')).slack.teamId).toBe('T0123ABCD');
    expect(errorOf(yaml(...BASE, 'slack:', '  teamId: my-workspace'))).toBe(
      'demo.yaml:5: slack.teamId: a Slack team id such as T0123ABCD (About this workspace)',
    );
  });

  it('rejects an empty file', () => {
    expect(errorOf('')).toMatch(/^demo\.yaml:1: \(top level\): /);
  });
});

describe('loadConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'responder-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the file in its errors', async () => {
    const path = join(dir, 'bad.yaml');
    await writeFile(path, yaml(...BASE, 'limits:', '  dedupeMinutes: 5'));
    await expect(loadConfig(path)).rejects.toThrow(`${path}:5: limits.dedupeMinutes: at least 10 minutes`);
  });

  it('says which file is missing', async () => {
    const path = join(dir, 'missing.yaml');
    const error = await loadConfig(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`cannot read config ${path}: ENOENT`);
  });
});
