import { startCluster, type TestCluster } from 'cilium-responder/testing';
import { afterEach, describe, expect, test } from 'vitest';
import runbook from '../runbooks/kube-proxy-coexistence/index.ts';
import leftBehind from '../scenarios/kube-proxy-left-behind.ts';
import removed from '../scenarios/kube-proxy-removed.ts';
import replacementOff from '../scenarios/replacement-off.ts';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('kube-proxy-coexistence', () => {
  test('kube-proxy running beside the replacement: degraded, with the fix and the cluster as evidence', async () => {
    cluster = await startCluster({ scenarios: [leftBehind] });
    const report = await cluster.run(runbook);
    expect(report.verdict).toBe('degraded');
    const step = report.steps.find((s) => s.id === 'kube-proxy-running');
    expect(step?.status).toBe('fail');
    expect(step?.findings).toEqual([
      expect.objectContaining({
        code: 'KUBE_PROXY_BESIDE_REPLACEMENT',
        target: 'kube-system/kube-proxy',
        fix: expect.stringContaining('aws eks delete-addon --cluster-name sim --addon-name kube-proxy'),
      }),
    ]);
    expect(step?.evidence.map((e) => e.text)).toContain('4 of 4 pods ready');
    expect(report.steps[0]?.evidence[0]?.text).toBe('kube-proxy-replacement: true');
  });

  test('kube-proxy removed: healthy', async () => {
    cluster = await startCluster({ scenarios: [removed] });
    const report = await cluster.run(runbook);
    expect(report.verdict).toBe('healthy');
    expect(report.steps.find((s) => s.id === 'kube-proxy-running')?.summary).toBe(
      'no DaemonSet kube-system/kube-proxy: kube-proxy is gone',
    );
  });

  test('replacement off: kube-proxy is needed, the check is skipped with the reason', async () => {
    cluster = await startCluster({ scenarios: [replacementOff] });
    const report = await cluster.run(runbook);
    expect(report.verdict).toBe('healthy');
    const step = report.steps.find((s) => s.id === 'kube-proxy-running');
    expect(step?.status).toBe('skip');
    expect(step?.summary).toContain('replacement is off');
  });

  test('bad params are refused before anything runs, naming the field', async () => {
    cluster = await startCluster({ scenarios: [leftBehind] });
    await expect(cluster.run(runbook, { params: { namespace: '' } })).rejects.toThrow(/namespace/);
  });
});
