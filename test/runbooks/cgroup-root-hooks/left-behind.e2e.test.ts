import { afterEach, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import { parseConfig } from '../../../src/config/load.ts';
import type { Job } from '../../../src/queue/job.ts';
import { memoryStore } from '../../../src/store/index.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { runCli } from '../../cli/run-cli.ts';
import { CLUSTER, collector, fixtureJson, RUNBOOK_IDS, recordingQueue } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { testPorts } from '../../src/app/test-ports.ts';

/**
 * The state the readers once called "could not check": an agent restarted into the host cgroup
 * namespace, its host root empty (bpftool cgroup show prints nothing), its hooks left on its old
 * container scope. Through the CLI and through an alert, the queue and the worker, the report
 * names the node, where the hooks are, and the fix.
 */
const SCENARIO = 'cgroup-hooks-left-behind';
const FIX = "sh -c 'rm /host/sys/fs/bpf/cilium/socketlb/links/cgroup/*'";

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

describe(`${SCENARIO}, end to end`, () => {
  it('responder run says which node, where the hooks are, and the fix', async () => {
    const { code, output } = await runCli(['run', 'cgroup-root-hooks', '--sim', SCENARIO, '--no-state']);
    expect(code, output).toBe(1);
    expect(output).toContain('SOCKET_LB_HOOKS_NOT_ON_ROOT');
    expect(output.replaceAll(/\s+/g, ' ')).toMatch(
      /ip-[\d-]+\.[\w-]+\.compute\.internal: 10 of Cilium's socket-LB hook types are not on the host's cgroup root \/run\/cilium\/cgroupv2, only below it: connect4, .*, getpeername6 on \/run\/cilium\/cgroupv2\/kubepods\.slice\/.*\/cri-containerd-[0-9a-f]{64}\.scope\./,
    );
    expect(output.replaceAll(/\s+/g, ' ')).toContain(FIX);
    expect(output).not.toMatch(/could not check|no agent could be checked/);
  }, 60_000);

  it('an alert routed to the runbook ends in a report that names each node and its hooks', async () => {
    current = await startScenario([SCENARIO], { scenario: { brokenCgroupNodes: 1 } });
    const config = parseConfig(
      `
clusters:
  - name: ${CLUSTER}
    sim: { scenarios: [${SCENARIO}] }
    channel: '#${CLUSTER}'
routes:
  - match: { source: alertmanager, alertname: CiliumClusterIPUnreachable }
    runbook: cgroup-root-hooks
    mode: dry-run
`,
      'test-config.yaml',
      { runbooks: RUNBOOK_IDS },
    );
    const chat = collector();
    const store = memoryStore();
    const queue = recordingQueue();
    const access = current.access;
    const ports = testPorts({
      config,
      store,
      queue,
      chat: consoleSink(chat.stream),
    });
    const app = createApp(ports);
    const worker = createWorker(ports, { runbooks: RUNBOOKS, connect: async () => access });

    const webhook = fixtureJson<{ alerts: { labels: Record<string, string> }[] }>(
      'triggers/alertmanager-v4.json',
    );
    for (const alert of webhook.alerts)
      Object.assign(alert.labels, { alertname: 'CiliumClusterIPUnreachable', cluster: CLUSTER });
    await app.dispatch(
      parseAlertmanager(
        { ...webhook, commonLabels: { alertname: 'CiliumClusterIPUnreachable', cluster: CLUSTER } },
        { receivedAt: new Date() },
      ),
    );
    const [job] = queue.sent as [Job];
    expect(job.runbook).toBe('cgroup-root-hooks');

    const { record } = await worker.run(job);
    const [node] = current.plan.cgroup?.brokenNodes ?? [];
    const scope = current.plan.cgroup?.hooksAt?.[node as string];
    expect(record.verdict).toBe('degraded');
    const posted = chat.text();
    expect(posted.replaceAll(/\s+/g, ' ')).toContain(
      `${node}: 10 of Cilium's socket-LB hook types are not on the host's cgroup root /run/cilium/cgroupv2, only below it`,
    );
    expect(posted.replaceAll(/\s+/g, ' ')).toContain(`/run/cilium/cgroupv2${scope}`);
    expect(posted.replaceAll(/\s+/g, ' ')).toContain(FIX);
  });
});
