import { describe, expect, it } from 'vitest';
import { type RouteContext, routeTrigger } from '../../../src/routing/route.ts';
import {
  alarmTrigger,
  alert,
  alertmanagerTrigger,
  approvalTrigger,
  counterIds,
  RUNBOOK_IDS,
  scheduleTrigger,
  slackCommand,
  testConfig,
} from './fixtures.ts';

function context(config = testConfig()): RouteContext {
  return { config, runbooks: RUNBOOK_IDS, newId: counterIds() };
}

const pairs = (jobs: { cluster: string; runbook: string }[]): string[] =>
  jobs.map((job) => `${job.cluster}/${job.runbook}`);

describe('routeTrigger: Alertmanager', () => {
  it('turns a group of 30 alerts for one cluster and runbook into one job', () => {
    const alerts = Array.from({ length: 30 }, (_, n) =>
      alert(
        n % 2 ? 'CiliumUnmanagedPods' : 'CiliumEndpointMissing',
        { cluster: 'prod-eu', pod: `web-${n}` },
        n,
      ),
    );
    const trigger = alertmanagerTrigger(alerts, { cluster: 'prod-eu' });
    const result = routeTrigger(trigger, context());
    expect(result).toEqual({
      jobs: [
        {
          id: 'job-1',
          runbook: 'unmanaged-pods',
          cluster: 'prod-eu',
          mode: 'approve',
          params: {},
          trigger,
          dedupeKey: `${trigger.deliveryKey}|prod-eu|unmanaged-pods`,
        },
      ],
      resolved: [],
      skipped: [],
    });
  });

  it('makes one job per cluster when a group spans two clusters', () => {
    const alerts = [
      ...Array.from({ length: 5 }, (_, n) => alert('CiliumUnmanagedPods', { cluster: 'prod-eu' }, n)),
      ...Array.from({ length: 5 }, (_, n) => alert('CiliumUnmanagedPods', { cluster: 'prod-us' }, n + 5)),
    ];
    const result = routeTrigger(alertmanagerTrigger(alerts), context());
    expect(pairs(result.jobs)).toEqual(['prod-eu/unmanaged-pods', 'prod-us/unmanaged-pods']);
    expect(new Set(result.jobs.map((job) => job.dedupeKey)).size).toBe(2);
    expect(new Set(result.jobs.map((job) => job.id)).size).toBe(2);
  });

  it('takes the cluster from the group when the alerts carry no cluster label', () => {
    const result = routeTrigger(
      alertmanagerTrigger([alert('CiliumUnmanagedPods')], { cluster: 'prod-us' }),
      context(),
    );
    expect(pairs(result.jobs)).toEqual(['prod-us/unmanaged-pods']);
  });

  it("uses the route's own cluster over the alert's label", () => {
    const result = routeTrigger(
      alertmanagerTrigger([alert('CiliumUnreachableNodes', { cluster: 'prod-us' })]),
      context(),
    );
    expect(pairs(result.jobs)).toEqual(['prod-eu/tunnel-datapath']);
  });

  it('expands runbook `all` into one job per runbook', () => {
    const result = routeTrigger(
      alertmanagerTrigger([alert('CiliumCheckEverything', { cluster: 'sim' })]),
      context(),
    );
    expect(result.jobs.map((job) => job.runbook)).toEqual(RUNBOOK_IDS);
    expect(result.jobs.every((job) => job.cluster === 'sim' && job.mode === 'dry-run')).toBe(true);
    expect(result.skipped).toEqual([]);
  });

  it('collapses routes that point at the same (cluster, runbook) into one job', () => {
    const result = routeTrigger(
      alertmanagerTrigger([
        alert('CiliumCheckEverything', { cluster: 'prod-eu' }, 1),
        alert('CiliumUnmanagedPods', { cluster: 'prod-eu' }, 2),
      ]),
      context(),
    );
    expect(pairs(result.jobs).sort()).toEqual(RUNBOOK_IDS.map((id) => `prod-eu/${id}`).sort());
  });

  it('records resolved alerts as resolved jobs and runs nothing', () => {
    const alerts = Array.from({ length: 3 }, (_, n) =>
      alert('CiliumUnmanagedPods', { cluster: 'prod-eu' }, n),
    );
    const result = routeTrigger(alertmanagerTrigger(alerts, { status: 'resolved' }), context());
    expect(result.jobs).toEqual([]);
    expect(pairs(result.resolved)).toEqual(['prod-eu/unmanaged-pods']);
    expect(result.skipped).toEqual([]);
  });

  it('ignores resolved alerts inside a firing group', () => {
    const trigger = alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'prod-eu' })]);
    trigger.alerts.push({ ...alert('CiliumUnmanagedPods', { cluster: 'prod-us' }), status: 'resolved' });
    const result = routeTrigger(trigger, context());
    expect(pairs(result.jobs)).toEqual(['prod-eu/unmanaged-pods']);
    expect(result.resolved).toEqual([]);
  });

  it('says which alerts no route matches, once per alert name', () => {
    const alerts = [
      alert('CiliumUnmanagedPods', { cluster: 'prod-eu' }, 1),
      alert('KubeNodeNotReady', { cluster: 'prod-eu' }, 2),
      alert('KubeNodeNotReady', { cluster: 'prod-eu' }, 3),
    ];
    const result = routeTrigger(alertmanagerTrigger(alerts), context());
    expect(pairs(result.jobs)).toEqual(['prod-eu/unmanaged-pods']);
    expect(result.skipped).toEqual(['KubeNodeNotReady: no route matches']);
  });

  it('needs every label a route asks for', () => {
    const warning = routeTrigger(
      alertmanagerTrigger([alert('CiliumHostMarkRuleMissing', { cluster: 'prod-eu', severity: 'warning' })]),
      context(),
    );
    expect(warning.jobs).toEqual([]);
    expect(warning.skipped).toEqual(['CiliumHostMarkRuleMissing: no route matches']);
    const critical = routeTrigger(
      alertmanagerTrigger([alert('CiliumHostMarkRuleMissing', { cluster: 'prod-eu', severity: 'critical' })]),
      context(),
    );
    expect(critical.jobs.map((job) => [job.cluster, job.runbook, job.mode])).toEqual([
      ['prod-eu', 'host-identity', 'auto'],
    ]);
  });

  it('skips a cluster that is not in the config, saying so', () => {
    const result = routeTrigger(
      alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'staging' })]),
      context(),
    );
    expect(result.jobs).toEqual([]);
    expect(result.skipped).toEqual([
      'CiliumUnmanagedPods: cluster "staging" is not in the config: tried its cluster names (prod-eu, prod-us, sim) and its EKS cluster names (none)',
    ]);
  });

  it('skips an alert that names no cluster, saying how to fix it', () => {
    const result = routeTrigger(alertmanagerTrigger([alert('CiliumUnmanagedPods')]), context());
    expect(result.jobs).toEqual([]);
    expect(result.skipped).toEqual([
      'CiliumUnmanagedPods: no cluster (set the route\'s cluster or a "cluster" label)',
    ]);
  });

  it('gives the same dedupe keys, and new job ids, to the same notification routed twice', () => {
    const ctx = context();
    const trigger = alertmanagerTrigger([alert('CiliumCheckEverything', { cluster: 'sim' })]);
    const first = routeTrigger(trigger, ctx).jobs;
    const second = routeTrigger(structuredClone(trigger), ctx).jobs;
    expect(second.map((job) => job.dedupeKey)).toEqual(first.map((job) => job.dedupeKey));
    expect(second.map((job) => job.id)).not.toEqual(first.map((job) => job.id));
    const other = routeTrigger(
      alertmanagerTrigger([alert('CiliumCheckEverything', { cluster: 'sim' })], {
        deliveryKey: 'alertmanager:2',
      }),
      ctx,
    ).jobs;
    expect(other.map((job) => job.dedupeKey)).not.toContain(first[0]?.dedupeKey);
  });

  it('routes an Alertmanager alert only through routes for its source', () => {
    // The cloudwatch-only route for this name must not take an Alertmanager alert of the same name.
    const result = routeTrigger(
      alertmanagerTrigger([alert('cilium-node-connectivity-down', { cluster: 'prod-eu' })]),
      context(),
    );
    expect(result.jobs).toEqual([]);
  });
});

describe('routeTrigger: CloudWatch', () => {
  it('routes an alarm by name, its cluster taken from the ClusterName dimension', () => {
    const trigger = alarmTrigger('cilium-node-connectivity-down', { ClusterName: 'prod-us' });
    const result = routeTrigger(trigger, context());
    expect(result.jobs).toEqual([
      {
        id: 'job-1',
        runbook: 'tunnel-datapath',
        cluster: 'prod-us',
        mode: 'dry-run',
        params: { aws: { region: 'eu-west-1' } },
        // Who set each param, for the approval message: here, the route.
        paramsBy: { aws: 'route' },
        trigger,
        dedupeKey: `${trigger.deliveryKey}|prod-us|tunnel-datapath`,
      },
    ]);
  });

  it('routes an alarm by its dimensions', () => {
    const result = routeTrigger(
      alarmTrigger('agent-errors', { ClusterName: 'prod-eu', Service: 'cilium-agent' }),
      context(),
    );
    expect(result.jobs.map((job) => [job.cluster, job.runbook, job.mode])).toEqual([
      ['prod-eu', 'host-identity', 'approve'],
    ]);
    const otherService = routeTrigger(
      alarmTrigger('agent-errors', { ClusterName: 'prod-eu', Service: 'coredns' }),
      context(),
    );
    expect(otherService.jobs).toEqual([]);
    expect(otherService.skipped).toEqual(['agent-errors: no route matches']);
  });

  it('skips an alarm whose ClusterName is not a configured cluster', () => {
    const result = routeTrigger(
      alarmTrigger('cilium-node-connectivity-down', { ClusterName: 'example-cluster' }),
      context(),
    );
    expect(result.jobs).toEqual([]);
    expect(result.skipped).toEqual([
      'cilium-node-connectivity-down: cluster "example-cluster" is not in the config: tried its cluster names (prod-eu, prod-us, sim) and its EKS cluster names in eu-west-1 (none)',
    ]);
  });

  it('skips an alarm without a ClusterName dimension on a route without a cluster, saying how to fix it', () => {
    const result = routeTrigger(alarmTrigger('cilium-node-connectivity-down', {}), context());
    expect(result.skipped).toEqual([
      "cilium-node-connectivity-down: no cluster (set the route's cluster or a ClusterName dimension on the alarm)",
    ]);
  });

  describe('an alarm whose ClusterName is the EKS cluster name', () => {
    const eksConfig = () =>
      testConfig({
        clusters: [
          { name: 'payments', eks: { name: 'payments-prod-7f3a', region: 'eu-west-1' } },
          { name: 'payments-us', eks: { name: 'payments-prod-7f3a', region: 'us-east-1' } },
          { name: 'prod-eu', kubeconfig: { path: '/etc/kube/prod-eu' } },
        ],
        schedules: [],
      });
    const routed = (clusterName: string) =>
      routeTrigger(
        alarmTrigger('cilium-node-connectivity-down', { ClusterName: clusterName }),
        context(eksConfig()),
      );

    it("routes to the config cluster with that EKS name in the alarm's region", () => {
      expect(routed('payments-prod-7f3a').jobs.map((job) => job.cluster)).toEqual(['payments']);
    });

    it('routes an Alertmanager alert whose cluster label is an EKS name, in any region', () => {
      const result = routeTrigger(
        alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'payments-prod-7f3a' })]),
        context(eksConfig()),
      );
      expect(result.jobs.map((job) => job.cluster)).toEqual(['payments']);
    });

    it('still takes the config name first', () => {
      expect(routed('payments-us').jobs.map((job) => job.cluster)).toEqual(['payments-us']);
    });

    it('skips an EKS name the config has in no cluster of that region, naming the names it tried', () => {
      const result = routed('payments-staging');
      expect(result.jobs).toEqual([]);
      expect(result.skipped).toEqual([
        'cilium-node-connectivity-down: cluster "payments-staging" is not in the config: tried its cluster names (payments, payments-us, prod-eu) and its EKS cluster names in eu-west-1 (payments-prod-7f3a)',
      ]);
    });
  });

  it('records an alarm back to OK as resolved', () => {
    const result = routeTrigger(
      alarmTrigger('cilium-node-connectivity-down', { ClusterName: 'prod-eu' }, 'OK'),
      context(),
    );
    expect(result.jobs).toEqual([]);
    expect(pairs(result.resolved)).toEqual(['prod-eu/tunnel-datapath']);
  });

  it('runs nothing for INSUFFICIENT_DATA', () => {
    const result = routeTrigger(
      alarmTrigger('cilium-node-connectivity-down', { ClusterName: 'prod-eu' }, 'INSUFFICIENT_DATA'),
      context(),
    );
    expect(result).toEqual({ jobs: [], resolved: [], skipped: [] });
  });
});

describe('routeTrigger: Slack commands', () => {
  it('gives a person a dry run unless they ask for a mode', () => {
    const result = routeTrigger(slackCommand({ cluster: 'prod-eu', runbook: 'unmanaged-pods' }), context());
    expect(result.jobs.map((job) => [job.cluster, job.runbook, job.mode])).toEqual([
      ['prod-eu', 'unmanaged-pods', 'dry-run'],
    ]);
  });

  it('uses the mode and params a person asked for', () => {
    const result = routeTrigger(
      slackCommand({
        cluster: 'prod-eu',
        runbook: 'unmanaged-pods',
        mode: 'auto',
        params: { namespaces: ['shop'] },
      }),
      context(),
    );
    expect(result.jobs.map((job) => [job.mode, job.params])).toEqual([['auto', { namespaces: ['shop'] }]]);
  });

  it('expands `all`', () => {
    const result = routeTrigger(slackCommand({ cluster: 'sim', runbook: 'all' }), context());
    expect(pairs(result.jobs)).toEqual(RUNBOOK_IDS.map((id) => `sim/${id}`));
  });

  it('skips an unknown cluster, an unknown runbook, or a command that names neither', () => {
    expect(routeTrigger(slackCommand({ cluster: 'staging', runbook: 'host-identity' }), context())).toEqual({
      jobs: [],
      resolved: [],
      skipped: ['cluster "staging" is not in the config'],
    });
    expect(
      routeTrigger(slackCommand({ cluster: 'sim', runbook: 'restart-everything' }), context()).skipped,
    ).toEqual(['unknown runbook "restart-everything"']);
    expect(routeTrigger(slackCommand({ cluster: 'sim' }), context()).skipped).toEqual([
      'the command names no runbook or cluster',
    ]);
  });

  it('makes no job for a button press (approvals resume their run instead)', () => {
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-1', decision: 'approve', approved: [] });
    expect(routeTrigger(trigger, context())).toEqual({ jobs: [], resolved: [], skipped: [] });
  });
});

describe('routeTrigger: schedules', () => {
  it('sweeps every cluster with every runbook when the schedule names neither', () => {
    const result = routeTrigger(scheduleTrigger('nightly'), context());
    expect(pairs(result.jobs)).toEqual(
      ['prod-eu', 'prod-us', 'sim'].flatMap((cluster) => RUNBOOK_IDS.map((id) => `${cluster}/${id}`)),
    );
    expect(result.jobs.every((job) => job.mode === 'dry-run')).toBe(true);
    expect(new Set(result.jobs.map((job) => job.dedupeKey)).size).toBe(12);
  });

  it("sweeps the schedule's clusters × runbooks in its mode", () => {
    const result = routeTrigger(scheduleTrigger('hourly-eu'), context());
    expect(result.jobs.map((job) => [job.cluster, job.runbook, job.mode])).toEqual([
      ['prod-eu', 'cgroup-root-hooks', 'auto'],
      ['prod-eu', 'tunnel-datapath', 'auto'],
    ]);
  });

  it('narrows the schedule to the cluster and runbook the event names, in the mode it asks', () => {
    const result = routeTrigger(
      scheduleTrigger('nightly', { cluster: 'prod-us', runbook: 'host-identity', mode: 'auto' }),
      context(),
    );
    expect(result.jobs.map((job) => [job.cluster, job.runbook, job.mode])).toEqual([
      ['prod-us', 'host-identity', 'auto'],
    ]);
    const cluster = routeTrigger(scheduleTrigger('nightly', { cluster: 'sim' }), context());
    expect(pairs(cluster.jobs)).toEqual(RUNBOOK_IDS.map((id) => `sim/${id}`));
  });

  it('skips a schedule the config does not have', () => {
    expect(routeTrigger(scheduleTrigger('weekly'), context())).toEqual({
      jobs: [],
      resolved: [],
      skipped: ['no schedule named "weekly" in the config'],
    });
  });
});
