import { describe, expect, it } from 'vitest';
import { parseSocketLbStatus } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { socketLbFromConfig } from '../../../runbooks/cgroup-root-hooks/socket-lb.ts';
import { fixtureCluster, run } from '../../sim/exec/fixtures.ts';

const STATUS = ['cilium-dbg', 'status', '-o', 'json'];

function status(socketLB: unknown): string {
  return JSON.stringify({ 'kube-proxy-replacement': { mode: 'True', features: { nodePort: {}, socketLB } } });
}

describe('parseSocketLbStatus (cilium-dbg status -o json)', () => {
  it('reads the simulated agent, on and off', async () => {
    expect(
      parseSocketLbStatus((await run(fixtureCluster({ socketLB: true }, {}), STATUS)).stdout).enabled,
    ).toBe(true);
    expect(
      parseSocketLbStatus((await run(fixtureCluster({ socketLB: false }, {}), STATUS)).stdout).enabled,
    ).toBe(false);
  });

  it('reads enabled true, and the {} Go omitempty leaves when off', () => {
    expect(parseSocketLbStatus(status({ enabled: true }))).toEqual({
      enabled: true,
      field: 'kube-proxy-replacement.features.socketLB.enabled',
    });
    expect(parseSocketLbStatus(status({})).enabled).toBe(false);
    expect(parseSocketLbStatus(status({ enabled: false })).enabled).toBe(false);
  });

  it('reads hostReachableServices from agents older than 1.10', () => {
    const old = JSON.stringify({
      'kube-proxy-replacement': {
        mode: 'Strict',
        features: {
          nodePort: { enabled: true },
          hostReachableServices: { enabled: true, protocols: ['TCP', 'UDP'] },
        },
      },
    });
    expect(parseSocketLbStatus(old)).toEqual({
      enabled: true,
      field: 'kube-proxy-replacement.features.hostReachableServices.enabled',
    });
  });

  it.each([
    ['empty output', '', /does not parse/],
    ['text status', 'KVStore:   Ok   Disabled\n', /does not parse/],
    ['no kube-proxy-replacement section', '{"cilium":{"state":"Ok"}}', /kube-proxy-replacement/],
    ['no features', '{"kube-proxy-replacement":{"mode":"False"}}', /kube-proxy-replacement\.features/],
    [
      'no socketLB feature',
      '{"kube-proxy-replacement":{"features":{}}}',
      /neither .*socketLB nor .*hostReachableServices/,
    ],
    ['a string enabled', status({ enabled: 'true' }), /socketLB\.enabled/],
  ])('throws on %s', (_what, output, message) => {
    expect(() => parseSocketLbStatus(output)).toThrow(message);
  });
});

describe('socketLbFromConfig (cilium-config)', () => {
  it.each([
    [{ 'kube-proxy-replacement': 'true', 'bpf-lb-sock': 'false' }, true],
    [{ 'kube-proxy-replacement': 'strict' }, true],
    [{ 'kube-proxy-replacement': 'disabled', 'bpf-lb-sock': 'true' }, false],
    [{ 'kube-proxy-replacement': 'false', 'bpf-lb-sock': 'true' }, true],
    [{ 'kube-proxy-replacement': 'partial', 'bpf-lb-sock': 'true' }, true],
    [{ 'kube-proxy-replacement': 'false', 'bpf-lb-sock': 'false' }, false],
    [{ 'kube-proxy-replacement': 'false' }, false],
    [{ 'kube-proxy-replacement': 'probe' }, undefined],
    [{ 'kube-proxy-replacement': 'partial' }, undefined],
    [{}, undefined],
  ])('%j → %s', (config, enabled) => {
    expect(socketLbFromConfig(config).enabled).toBe(enabled);
  });

  it('names the deciding key', () => {
    expect(socketLbFromConfig({ 'kube-proxy-replacement': 'false', 'bpf-lb-sock': 'true' }).because).toBe(
      'bpf-lb-sock=true',
    );
  });
});
