import { describe, expect, it } from 'vitest';
import { defineRunbook, defineStep, finding, outcome, RESOURCES, statusFor } from '../../sdk/index.ts';
import { defineScenario, startCluster } from '../../sdk/testing.ts';

/** A team's runbook as a test would hold one: kube-proxy pods present or not. */
const kubeProxyPods = defineRunbook({
  id: 'kube-proxy-pods',
  title: 'kube-proxy pods',
  summary: 'Reports kube-proxy pods.',
  steps: [
    defineStep({
      id: 'pods',
      title: 'kube-proxy pods',
      run: async (ctx) => {
        const pods = await ctx.kube.list(RESOURCES.pods, {
          namespace: 'kube-system',
          labelSelector: 'k8s-app=kube-proxy',
          project: 'metadata',
        });
        const findings = pods.map((pod) =>
          finding({ code: 'KUBE_PROXY_POD', target: `kube-system/${pod.name}`, message: 'present' }),
        );
        return outcome(statusFor(findings), `${pods.length} pods`, { findings });
      },
    }),
  ],
});

const removed = defineScenario({
  name: 'no-kube-proxy',
  description: 'no kube-proxy',
  options: { kubeProxy: false },
});

describe('cilium-responder/testing', () => {
  it("runs a team's runbook on the built-in and on its own scenarios, with the verdicts the cluster gives", async () => {
    const withKubeProxy = await startCluster({ options: { nodes: 2 } });
    try {
      const report = await withKubeProxy.run(kubeProxyPods);
      expect(report.verdict).toBe('degraded');
      expect(report.steps[0]?.findings).toHaveLength(2);
    } finally {
      await withKubeProxy.close();
    }
    const without = await startCluster({ scenarios: [removed] });
    try {
      expect((await without.run(kubeProxyPods)).verdict).toBe('healthy');
    } finally {
      await without.close();
    }
  }, 60_000);

  it('holds ctx.kube to the declared reads: an undeclared one fails its step naming the rule to add', async () => {
    const daemonSets = (permissions: { apiGroups: string[]; resources: string[]; verbs: string[] }[]) =>
      defineRunbook({
        id: 'daemonsets',
        title: 'DaemonSets',
        summary: 'Counts the DaemonSets in kube-system.',
        permissions,
        steps: [
          defineStep({
            id: 'count',
            title: 'DaemonSets',
            run: async (ctx) => {
              const names = await ctx.kube.list(RESOURCES.daemonsets, {
                namespace: 'kube-system',
                project: 'metadata',
              });
              return outcome('pass', `${names.length} DaemonSets`);
            },
          }),
        ],
      });
    const cluster = await startCluster({ options: { nodes: 1 } });
    try {
      const undeclared = await cluster.run(daemonSets([]));
      expect(undeclared.steps[0]?.status).toBe('error');
      expect(undeclared.steps[0]?.summary).toContain(
        'runbook daemonsets reads daemonsets in namespace kube-system without a rule for it: declare { apiGroups: [apps], resources: [daemonsets], verbs: [list] } in its permissions',
      );
      const declared = await cluster.run(
        daemonSets([{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['list'] }]),
      );
      expect(declared.steps[0]).toMatchObject({ status: 'pass', summary: '3 DaemonSets' }); // cilium, aws-node, kube-proxy
    } finally {
      await cluster.close();
    }
  }, 60_000);

  it("refuses a team scenario that takes a built-in scenario's name", async () => {
    const clash = defineScenario({ name: 'healthy', description: 'x', options: {} });
    await expect(startCluster({ scenarios: [clash] })).rejects.toThrow(
      `scenario "healthy" is a built-in scenario's name; choose another`,
    );
  });

  it('refuses a badly formed scenario name', () => {
    expect(() => defineScenario({ name: 'No Way', description: 'x', options: {} })).toThrow(
      'lowercase letters',
    );
  });
});
