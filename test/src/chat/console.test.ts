import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { consoleSink } from '../../../src/chat/console.ts';
import { degraded, healthy, needsApproval } from './reports.ts';

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { out, read: () => text };
}

const target = { channel: '#cilium-prod', threadKey: 'prod-eu/unmanaged-pods' };

describe('consoleSink', () => {
  it('writes a short block per report', async () => {
    const { out, read } = capture();
    await consoleSink(out).postReport(degraded, target);
    const lines = read().split('\n');
    expect(lines[0]).toBe(
      '[#cilium-prod · prod-eu/unmanaged-pods · new] unmanaged-pods on prod-eu: degraded, 13 found, 1 fixed, 12 open',
    );
    expect(lines[1]).toBe(
      '  1 of 13 fixed and verified (1 pod evicted), 12 open: 1 blocked (PodDisruptionBudget shop/web allows 0); 11 need a person: shop/web-11 runs without a CiliumEndpoint, so policy does not apply to it; fix: kubectl -n kube-system rollout restart ds/cilium.',
    );
    expect(lines).toContain('  run run-0001 · mode auto · took 1.3 s · 13 found, 1 fixed, 12 open');
    expect(lines).toContain('  [FAIL] Find unmanaged pods: 13 unmanaged pods on 2 nodes');
    expect(lines).toContain('  [warn] Restart unmanaged pods: 1 evicted, 1 blocked');
    expect(lines).toContain(
      '    - [open] critical UNMANAGED_POD shop/web-11: shop/web-11 runs without a CiliumEndpoint, so policy does not apply to it (fix: kubectl -n kube-system rollout restart ds/cilium)',
    );
    expect(lines).toContain('    …and 3 more');
    expect(lines).toContain('    - evict-pod shop/web-1');
  });

  it('shows the plan waiting for approval', async () => {
    const { out, read } = capture();
    await consoleSink(out).postReport(needsApproval, target);
    expect(read()).toContain('  waiting for approval:\n    - evict-pod shop/web-1: no CiliumEndpoint\n');
  });

  it('threads like Slack: the same thread updated, resolved said in it, text in it a reply', async () => {
    const { out, read } = capture();
    const sink = consoleSink(out);
    await sink.postReport(degraded, target);
    await sink.postReport(healthy, target);
    await sink.postText(target, 'alert resolved');
    await sink.postText({ ...target, threadKey: 'prod-eu/host-identity' }, 'approved by U123');
    const heads = read()
      .split('\n')
      .filter((line) => line.startsWith('['));
    expect(heads).toEqual([
      '[#cilium-prod · prod-eu/unmanaged-pods · new] unmanaged-pods on prod-eu: degraded, 13 found, 1 fixed, 12 open',
      '[#cilium-prod · prod-eu/unmanaged-pods · update] unmanaged-pods on prod-eu: healthy',
      '[#cilium-prod · prod-eu/unmanaged-pods · reply] Resolved: Nothing wrong found on prod-eu.',
      '[#cilium-prod · prod-eu/unmanaged-pods · reply] alert resolved',
      '[#cilium-prod · prod-eu/host-identity · new] approved by U123',
    ]);
  });
});
