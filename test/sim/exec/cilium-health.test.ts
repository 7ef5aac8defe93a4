import { describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import { fixtureCluster, NODES, run } from './fixtures.ts';

const TIMED_OUT = 'Connection timed out';
const HTTP_TIMEOUT =
  'Get "http://10.0.2.20:4240/hello": context deadline exceeded (Client.Timeout exceeded while awaiting headers)';

describe('cilium-health status', () => {
  it('reports every Cilium node healthy, statuses omitted and latencies set', async () => {
    const result = await run(fixtureCluster(), ['cilium-health', 'status', '-o', 'json']);
    expect(result.code).toBe(0);
    const health = JSON.parse(result.stdout);
    expect(health.local).toEqual({ name: `default/${NODES[0]}` });
    expect(health.timestamp).toBe('2025-03-04T05:05:37Z');
    expect(health.nodes.map((n: { name: string }) => n.name)).toEqual(NODES.map((n) => `default/${n}`));
    const peer = health.nodes[1];
    expect(peer.host['primary-address'].ip).toBe('10.0.2.20');
    expect(peer.host['primary-address'].icmp.status).toBeUndefined();
    expect(peer.host['primary-address'].icmp.latency).toBeGreaterThan(0);
    expect(peer['health-endpoint']['primary-address'].http.lastProbed).toBe('2025-03-04T05:06:07Z');
    expect(peer['health-endpoint']['secondary-addresses']).toEqual([]);
    expect(peer.endpoint).toEqual(peer['health-endpoint']['primary-address']);
  });

  it('reports the scenario failures for a peer, with error strings instead of latencies', async () => {
    const cluster = fixtureCluster({
      health: {
        peers: {
          [NODES[1]]: {
            host: { icmp: TIMED_OUT, http: HTTP_TIMEOUT },
            endpoint: { icmp: TIMED_OUT, http: '' },
          },
        },
      },
    });
    const health = JSON.parse((await run(cluster, ['cilium-health', 'status', '--output', 'json'])).stdout);
    const host = health.nodes[1].host['primary-address'];
    expect(host.icmp).toEqual({ lastProbed: '2025-03-04T05:06:07Z', status: TIMED_OUT });
    expect(host.http.status).toBe(HTTP_TIMEOUT);
    expect(health.nodes[1]['health-endpoint']['primary-address'].icmp.status).toBe(TIMED_OUT);
    expect(health.nodes[1]['health-endpoint']['primary-address'].http.status).toBeUndefined();
    expect(health.nodes[2].host['primary-address'].icmp.status).toBeUndefined();
  });

  it('uses CiliumNode health addresses when the scenario sets them', async () => {
    const cluster = fixtureCluster();
    cluster.store.create(R.ciliumnodes, {
      apiVersion: 'cilium.io/v2',
      kind: 'CiliumNode',
      metadata: { name: NODES[2] },
      spec: { addresses: [{ type: 'InternalIP', ip: '10.0.3.30' }], health: { ipv4: '10.0.3.77' } },
    });
    const health = JSON.parse((await run(cluster, ['cilium-health', 'status', '-o', 'json'])).stdout);
    expect(health.nodes[2]['health-endpoint']['primary-address'].ip).toBe('10.0.3.77');
  });

  it('prints the one-line-per-node table, and per-path detail with --verbose', async () => {
    const cluster = fixtureCluster({
      health: {
        peers: { [NODES[2]]: { host: { icmp: TIMED_OUT, http: '' }, endpoint: { icmp: '', http: '' } } },
      },
    });
    const table = (await run(cluster, ['cilium-health', 'status'])).stdout;
    expect(table).toMatch(
      /^Cluster health: +2\/3 reachable {3}\(2025-03-04T05:05:37Z\) {3}\(Probe interval: 1m56\.754608943s\)\n/,
    );
    expect(table).toMatch(
      new RegExp(`^ {2}default/${NODES[0]} \\(localhost\\) +10\\.0\\.1\\.10 +1/1 +1/1$`, 'm'),
    );
    expect(table).toMatch(new RegExp(`^ {2}default/${NODES[2]} +10\\.0\\.3\\.30 +0/1 +1/1$`, 'm'));
    const verbose = (await run(cluster, ['cilium-health', 'status', '--verbose'])).stdout;
    expect(verbose).toMatch(
      /^ {6}ICMP to stack: +Connection timed out +\(Last probed: 2025-03-04T05:06:07Z\)$/m,
    );
    expect(verbose).toMatch(/^ {6}HTTP to agent: +OK, RTT=\d+(\.\d+)?µs +\(Last probed: /m);
  });

  it('rejects unknown subcommands', async () => {
    const result = await run(fixtureCluster(), ['cilium-health', 'bogus']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: unknown command "bogus" for "cilium-health"');
  });
});
