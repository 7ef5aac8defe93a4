import { describe, expect, it } from 'vitest';
import { ExecStartError } from '../../../sim/exec/start-error.ts';
import { fixtureCluster, NODES, run } from './fixtures.ts';

const POLICY_DROP = {
  reason: 'Policy denied',
  sourceIdentity: 2,
  destinationIdentity: 12345,
  source: '10.0.1.10:43210',
  destination: '10.0.2.7:8080',
  summary: 'tcp SYN',
  endpointId: 1234,
};

describe('cilium-dbg / cilium', () => {
  it('answers on both names when the image ships both', async () => {
    const cluster = fixtureCluster({ cli: 'both' });
    expect((await run(cluster, ['cilium-dbg', 'version'])).code).toBe(0);
    const viaLink = await run(cluster, ['/usr/bin/cilium', 'version']);
    expect(viaLink.stdout).toMatch(
      /^Client: 1\.16\.5 [0-9a-f]{8} \S+ go version go1\.\d+\.\d+ linux\/amd64\nDaemon: /,
    );
  });

  it('lacks the old `cilium` binary in cilium-dbg-only images, as runc reports a missing executable', async () => {
    const cluster = fixtureCluster({ cli: 'cilium-dbg-only' });
    expect((await run(cluster, ['cilium-dbg', 'status', '--brief'])).stdout).toBe('OK\n');
    await expect(run(cluster, ['cilium', 'status'])).rejects.toThrow(
      'OCI runtime exec failed: exec failed: unable to start container process: exec: "cilium": executable file not found in $PATH: unknown',
    );
  });

  it('has only `cilium` in old images', async () => {
    const cluster = fixtureCluster({ cli: 'cilium-only', ciliumVersion: '1.14.9' });
    expect((await run(cluster, ['cilium', 'version'])).stdout).toContain('Client: 1.14.9 ');
    await expect(run(cluster, ['cilium-dbg', 'version'])).rejects.toBeInstanceOf(ExecStartError);
    await expect(run(cluster, ['/usr/bin/cilium-dbg', 'version'])).rejects.toThrow(
      'exec: "/usr/bin/cilium-dbg": stat /usr/bin/cilium-dbg: no such file or directory: unknown',
    );
  });

  it('reports status JSON in the StatusResponse shape, socket LB on', async () => {
    const cluster = fixtureCluster({ socketLB: true, kubeProxyReplacementMode: 'True' });
    const result = await run(cluster, ['cilium-dbg', 'status', '-o', 'json']);
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout);
    expect(status.cilium.state).toBe('Ok');
    expect(status['kube-proxy-replacement'].mode).toBe('True');
    expect(status['kube-proxy-replacement'].features.socketLB).toEqual({ enabled: true });
    expect(status.kubernetes.state).toBe('Ok');
    expect(status.kubernetes.msg).toBe('1.33 (v1.33.5-eks-113cf36) [linux/amd64]');
    expect(status.cluster.self).toBe(`default/${NODES[0]}`);
    expect(status.cluster.nodes).toHaveLength(3);
    expect(status.nodeMonitor).toEqual({ cpus: 4, lost: 0, npages: 64, pagesize: 4096, unknown: 0 });
    expect(result.stdout).toMatch(/^\{\n {2}"cilium": \{/);
  });

  it('omits socketLB.enabled when socket LB is off (Go omitempty), and keeps older mode names', async () => {
    const cluster = fixtureCluster({ socketLB: false, kubeProxyReplacementMode: 'Partial' });
    const status = JSON.parse((await run(cluster, ['cilium', 'status', '--output=json'])).stdout);
    expect(status['kube-proxy-replacement'].features.socketLB).toEqual({});
    expect(status['kube-proxy-replacement'].mode).toBe('Partial');
  });

  it('reads routing mode and cluster name from cilium-config', async () => {
    const cluster = fixtureCluster({}, { 'routing-mode': 'native', 'cluster-name': 'prod-eks' });
    const status = JSON.parse((await run(cluster, ['cilium-dbg', 'status', '-o', 'json'])).stdout);
    expect(status.routing['inter-host-routing-mode']).toBe('Native');
    expect(status.cluster.self).toBe(`prod-eks/${NODES[0]}`);
  });

  it('reports a not-ready agent', async () => {
    const cluster = fixtureCluster({ ready: false });
    const status = JSON.parse((await run(cluster, ['cilium-dbg', 'status', '-o', 'json'])).stdout);
    expect(status.cilium.state).toBe('Warning');
    expect((await run(cluster, ['cilium-dbg', 'status', '--brief'])).stdout).toMatch(/^error in cilium: /);
  });

  it('prints the human status through a tabwriter', async () => {
    const result = await run(fixtureCluster(), ['cilium-dbg', 'status']);
    expect(result.stdout).toMatch(/^KVStore: +Ok {3}Disabled\n/m);
    expect(result.stdout).toMatch(
      /^KubeProxyReplacement: +True {3}\[ens5 10\.0\.1\.10 \(Direct Routing\)\]$/m,
    );
    expect(result.stdout).toMatch(/^Cilium: +Ok {3}1\.16\.5 \(v1\.16\.5-[0-9a-f]{8}\)$/m);
    expect(result.stdout).toMatch(/^Cluster health: +3\/3 reachable {3}\(2025-03-04T05:05:37Z\)/m);
  });

  it('fails unknown subcommands and flags the way cobra does, on stderr', async () => {
    const cluster = fixtureCluster();
    expect(await run(cluster, ['cilium-dbg', 'bogus'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: unknown command "bogus" for "cilium-dbg"\nRun \'cilium-dbg --help\' for usage.\n',
    });
    const flag = await run(cluster, ['cilium-dbg', 'status', '--bogus']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toBe("Error: unknown flag: --bogus\nRun 'cilium-dbg status --help' for usage.\n");
  });

  it('streams monitor drops in DropNotify format until timeout kills it (exit 124)', async () => {
    const cluster = fixtureCluster({
      drops: [POLICY_DROP, { ...POLICY_DROP, sourceIdentity: 1, destinationIdentity: 6 }],
    });
    const started = Date.now();
    const result = await run(cluster, ['timeout', '0.3', 'cilium-dbg', 'monitor', '--type', 'drop']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(result.code).toBe(124);
    expect(result.stderr).toBe(
      'Listening for events on 4 CPUs with 64x4096 of shared memory\nPress Ctrl-C to quit\n',
    );
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^xx drop \(Policy denied\) flow 0x[0-9a-f]+ to endpoint 1234, ifindex \d+, file bpf_lxc\.c:\d+, , identity world->12345: 10\.0\.1\.10:43210 -> 10\.0\.2\.7:8080 tcp SYN$/,
    );
    expect(lines[1]).toContain(', identity host->remote-node: ');
  });

  it('prints numeric identities with -n and sends the old CLI header to stdout', async () => {
    const cluster = fixtureCluster({ cli: 'cilium-only', drops: [POLICY_DROP] });
    const result = await run(cluster, ['timeout', '0.05', 'cilium', 'monitor', '-t', 'drop', '-n']);
    expect(result.stdout).toMatch(
      /^Listening for events on 4 CPUs with 64x4096 of shared memory\nPress Ctrl-C to quit\nxx drop/,
    );
    expect(result.stdout).toContain(', identity 2->12345: ');
  });

  it('ends the monitor when the session aborts', async () => {
    const cluster = fixtureCluster();
    const controller = new AbortController();
    const pending = run(cluster, ['cilium-dbg', 'monitor'], { signal: controller.signal });
    controller.abort();
    expect((await pending).code).toBe(0);
  });
});
