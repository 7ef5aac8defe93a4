import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.ts';
import { mergeParams, paramsFromPairs } from '../../../src/params/merge.ts';
import { routeTrigger } from '../../../src/routing/route.ts';

describe('paramsFromPairs (--set)', () => {
  it('nests dotted keys and keeps values as text', () => {
    expect(paramsFromPairs(['aws.region=eu-west-1', 'gracePeriodSeconds=120', 'aws.profile=a=b'])).toEqual({
      aws: { region: 'eu-west-1', profile: 'a=b' },
      gracePeriodSeconds: '120',
    });
  });

  it.each([['region'], ['=x'], ['aws..region=x']])('refuses %j, naming it', (pair) => {
    expect(() => paramsFromPairs([pair])).toThrow(pair);
  });
});

describe('mergeParams', () => {
  it('lets later layers win key by key, merging nested objects', () => {
    expect(
      mergeParams({ aws: { region: 'a', role: 'r' }, n: 1 }, undefined, { aws: { region: 'b' } }),
    ).toEqual({
      aws: { region: 'b', role: 'r' },
      n: 1,
    });
  });
});

describe('per-cluster params in the config', () => {
  it("reach the cluster's jobs, under what the command asked for", () => {
    const config = parseConfig(`
clusters:
  - name: prod
    sim: { scenarios: [healthy] }
    params:
      tunnel-datapath: { aws: { region: eu-west-1 }, timeoutSeconds: 20 }
`);
    const { jobs } = routeTrigger(
      {
        source: 'cli',
        receivedAt: '2026-11-24T00:00:00Z',
        deliveryKey: 'cli:1',
        alerts: [],
        cluster: 'prod',
        runbook: 'tunnel-datapath',
        params: { timeoutSeconds: '5' },
        actor: { kind: 'user', id: 'local:me' },
      },
      { config, runbooks: ['tunnel-datapath'], newId: () => 'job-1' },
    );
    expect(jobs[0]?.params).toEqual({ aws: { region: 'eu-west-1' }, timeoutSeconds: '5' });
  });
});
