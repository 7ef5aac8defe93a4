import { describe, expect, it } from 'vitest';
import type { HealthReport, PathHealth } from '../../../runbooks/tunnel-datapath/health.ts';
import { judgeReport, pathEvidence, pathFinding } from '../../../runbooks/tunnel-datapath/paths.ts';

const ok = (ip: string): PathHealth => ({ ip, icmp: { ok: true }, http: { ok: true } });
const down = (ip: string, icmp = true, http = true): PathHealth => ({
  ip,
  icmp: icmp ? { ok: false, error: 'Connection timed out' } : { ok: true },
  http: http ? { ok: false, error: 'context deadline exceeded' } : { ok: true },
});

function report(
  peers: Record<string, { host?: PathHealth; endpoint?: PathHealth }>,
  self: { host?: PathHealth; endpoint?: PathHealth } = { host: ok('10.0.0.1'), endpoint: ok('10.64.0.1') },
): HealthReport {
  return {
    local: 'a',
    nodes: [
      { name: 'default/a', node: 'a', ...self },
      ...Object.entries(peers).map(([node, paths]) => ({ name: `default/${node}`, node, ...paths })),
    ],
  };
}

const TUNNEL = 'udp/8472 (VXLAN)';
const RECHECK = 'kubectl -n kube-system exec cilium-x -c cilium-agent -- cilium-health status --probe';

const ready = (...nodes: string[]) => new Map(nodes.map((node) => [node, true]));

describe('judgeReport', () => {
  it('keeps only peers with a failed probe, never unexpected peers', () => {
    const { paths, missing } = judgeReport(
      'a',
      report({
        b: { host: ok('10.0.0.2'), endpoint: down('10.64.0.2') },
        c: { host: ok('10.0.0.3'), endpoint: ok('10.64.0.3') },
        d: { host: down('10.0.0.4'), endpoint: down('10.64.0.4') },
      }),
      ready('a', 'b', 'c'),
    );
    expect(paths.map((path) => [path.to, path.hostFailed, path.endpointFailed])).toEqual([
      ['b', [], ['ICMP', 'HTTP']],
    ]);
    expect(missing).toEqual([]);
  });

  it("reports the node's failing probe of itself as local, not as a path to a peer", () => {
    const { paths } = judgeReport(
      'a',
      report(
        { b: { host: ok('10.0.0.2'), endpoint: ok('10.64.0.2') } },
        { host: ok('10.0.0.1'), endpoint: down('10.64.0.1') },
      ),
      ready('a', 'b'),
    );
    expect(paths.map((path) => [path.from, path.to, path.local, path.endpointFailed])).toEqual([
      ['a', 'a', true, ['ICMP', 'HTTP']],
    ]);
    const finding = pathFinding(paths[0] as (typeof paths)[number], TUNNEL, RECHECK);
    expect(finding).toMatchObject({ code: 'HEALTH_SELF_PROBE_FAILED', target: 'a', severity: 'warning' });
    expect(finding.message).toBe(
      'a: cilium-health on this node fails to reach its own health endpoint 10.64.0.1 (ICMP and HTTP): the local node, not the path to another node',
    );
    expect(finding.fix).toContain(RECHECK);
  });

  it('counts an absent endpoint or probe as not failed', () => {
    const { paths } = judgeReport(
      'a',
      report({ b: { host: { ip: '10.0.0.2', http: { ok: true } } } }),
      ready('b'),
    );
    expect(paths).toEqual([]);
  });

  it('judges a not-ready peer by its node ICMP only: a kernel that does not answer is a finding', () => {
    const peers = new Map([
      ['b', false],
      ['c', false],
    ]);
    const { paths } = judgeReport(
      'a',
      report({
        b: { host: down('10.0.0.2', true, true), endpoint: down('10.64.0.2') },
        c: { host: down('10.0.0.3', false, true), endpoint: down('10.64.0.3') },
      }),
      peers,
    );
    expect(paths.map((path) => [path.to, path.hostFailed, path.endpointFailed, path.peerNotReady])).toEqual([
      ['b', ['ICMP'], [], true],
    ]);
    const [path] = paths;
    if (!path) throw new Error('expected a failing path');
    expect(pathFinding(path, TUNNEL, RECHECK).message).toBe(
      'a -> b: node 10.0.0.2 does not answer ICMP, and its Cilium agent is not ready: the node is down or cut off from a',
    );
  });

  it('returns the peers the report does not list, as not checked', () => {
    const { paths, missing } = judgeReport(
      'a',
      report({ b: { host: ok('10.0.0.2'), endpoint: ok('10.64.0.2') } }),
      ready('a', 'b', 'c', 'd'),
    );
    expect(paths).toEqual([]);
    expect(missing).toEqual(['c', 'd']);
  });
});

describe('pathFinding', () => {
  const peers = ready('b');
  const finding = (host: PathHealth, endpoint: PathHealth) => {
    const [path] = judgeReport('a', report({ b: { host, endpoint } }), peers).paths;
    if (!path) throw new Error('expected a failing path');
    return pathFinding(path, TUNNEL, RECHECK);
  };

  it('names the tunnel when the endpoint fails and the host answers', () => {
    expect(finding(ok('10.0.0.2'), down('10.64.0.2'))).toEqual({
      code: 'TUNNEL_PATH_DOWN',
      target: 'a->b',
      severity: 'critical',
      message:
        'a -> b: health endpoint 10.64.0.2 fails ICMP and HTTP through the tunnel while node 10.0.0.2 answers: udp/8472 (VXLAN) is dropped between the nodes',
      fix: `Let the node security groups accept udp/8472 (VXLAN) from each other (see security-groups), then recheck: ${RECHECK}`,
    });
  });

  it('names 4240/tcp when only the host HTTP probe fails', () => {
    const result = finding(down('10.0.0.2', false, true), ok('10.64.0.2'));
    expect(result.message).toBe(
      'a -> b: node 10.0.0.2 fails HTTP while its health endpoint answers through the tunnel: tcp/4240 (cilium-health) is blocked between the nodes',
    );
    expect(result.fix).toContain('accept tcp/4240 (cilium-health) from each other');
  });

  it('names ICMP when only the host ICMP probe fails', () => {
    expect(finding(down('10.0.0.2', true, false), ok('10.64.0.2')).message).toContain(
      'fails ICMP while its health endpoint answers through the tunnel: ICMP is blocked',
    );
  });

  it('never claims the health endpoint answers when the report has no endpoint results', () => {
    const [path] = judgeReport('a', report({ b: { host: down('10.0.0.2', true, false) } }), peers).paths;
    if (!path) throw new Error('expected a failing path');
    const result = pathFinding(path, TUNNEL, RECHECK);
    expect(result.message).not.toContain('answers');
    expect(result.message).toContain('its health endpoint was not probed (not checked');
  });

  it('says so when neither the node nor its endpoint answers', () => {
    const result = finding(down('10.0.0.2'), down('10.64.0.2', true, false));
    expect(result.message).toBe(
      'a -> b: neither node 10.0.0.2 (ICMP and HTTP) nor its health endpoint 10.64.0.2 (ICMP) answers: the node is down or all traffic between the nodes is blocked',
    );
    expect(result.fix).toMatch(/^Check that b is up/);
  });
});

describe('pathEvidence', () => {
  it("quotes the probes' errors", () => {
    const [path] = judgeReport(
      'a',
      report({ b: { host: ok('10.0.0.2'), endpoint: down('10.64.0.2', true, false) } }),
      ready('b'),
    ).paths;
    expect(path && pathEvidence(path)).toEqual({
      source: 'a: cilium-health status -o json',
      text: '-> b: health endpoint 10.64.0.2 ICMP: Connection timed out',
    });
  });
});
