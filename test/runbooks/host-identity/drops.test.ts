import { describe, expect, it } from 'vitest';
import { worldPolicyDropsTo } from '../../../runbooks/host-identity/drops.ts';
import { isWorldIdentity, parseDrops } from '../../../runbooks/host-identity/index.ts';

const BANNER = 'Listening for events on 2 CPUs with 64x4096 of shared memory\nPress Ctrl-C to quit\n';

function monitorLine(
  identities: string,
  connection = '10.0.1.5:43210 -> 10.0.2.7:8080 tcp SYN',
  reason = 'Policy denied',
) {
  return `xx drop (${reason}) flow 0x3c1a4f to endpoint 1234, ifindex 7, file bpf_lxc.c:2118, , identity ${identities}: ${connection}`;
}

function hubbleFlow(flow: Record<string, unknown>): Record<string, unknown> {
  return {
    time: '2025-06-02T10:11:12.123456789Z',
    verdict: 'DROPPED',
    drop_reason: 133,
    IP: { source: '10.0.1.5', destination: '10.0.2.7', ipVersion: 'IPv4' },
    l4: { TCP: { source_port: 43210, destination_port: 8080, flags: { SYN: true } } },
    source: { identity: 2, labels: ['reserved:world'] },
    destination: { ID: 1234, identity: 12345, namespace: 'billing', pod_name: 'invoice-api-7d9f-abcde' },
    Type: 'L3_L4',
    node_name: 'ip-10-0-1-5.ec2.internal',
    event_type: { type: 1, sub_type: 133 },
    traffic_direction: 'INGRESS',
    drop_reason_desc: 'POLICY_DENIED',
    Summary: 'TCP Flags: SYN',
    ...flow,
  };
}

const WORLD_TO_POD = {
  reason: 'Policy denied',
  policyDenied: true,
  sourceIdentity: 2,
  destinationIdentity: 12345,
  source: { ip: '10.0.1.5', port: 43210 },
  destination: { ip: '10.0.2.7', port: 8080 },
  summary: 'tcp SYN',
};

describe('parseDrops: cilium-dbg monitor --type drop', () => {
  it('reads a drop line as DropNotify.DumpInfo prints it, skipping the banner', () => {
    expect(parseDrops(`${BANNER}${monitorLine('world->12345')}\n`)).toEqual([WORLD_TO_POD]);
  });

  it.each([
    ['numeric identities (monitor -n)', '2->12345', 2],
    ['world-ipv4 on dual-stack clusters', 'world-ipv4->12345', 9],
    ['world-ipv6', 'world-ipv6->12345', 10],
    ['the host identity', 'host->12345', 1],
    ['an allocated source', '48211->12345', 48211],
  ])('reads %s', (_name, identities, source) => {
    const [drop] = parseDrops(monitorLine(identities));
    expect(drop?.sourceIdentity).toBe(source);
    expect(drop?.destinationIdentity).toBe(12345);
  });

  it('reads the older line without ifindex and file', () => {
    const line =
      'xx drop (Policy denied) flow 0x0 to endpoint 1234, identity world->12345: 10.0.1.5:43210 -> 10.0.2.7:8080 tcp SYN';
    expect(parseDrops(line)).toEqual([WORLD_TO_POD]);
  });

  it('reads IPv6 addresses and ICMP without ports', () => {
    const [v6, icmp] = parseDrops(
      [
        monitorLine('world->12345', '[fd00::a]:43210 -> [fd00:10::7]:8080 tcp SYN'),
        monitorLine('world->12345', '10.0.1.5 -> 10.0.2.7 EchoRequest'),
      ].join('\n'),
    );
    expect(v6?.source).toEqual({ ip: 'fd00::a', port: 43210 });
    expect(v6?.destination).toEqual({ ip: 'fd00:10::7', port: 8080 });
    expect(icmp?.destination).toEqual({ ip: '10.0.2.7' });
    expect(icmp?.summary).toBe('EchoRequest');
  });

  it('keeps other drop reasons, marked as not policy denials', () => {
    const [drop] = parseDrops(monitorLine('world->12345', undefined, 'Stale or unroutable IP'));
    expect(drop).toMatchObject({ reason: 'Stale or unroutable IP', policyDenied: false });
  });

  it('marks reserved names it does not know as unknown identities', () => {
    expect(parseDrops(monitorLine('encrypted-overlay->12345'))[0]?.sourceIdentity).toBeUndefined();
  });

  it('returns no drops for a quiet window', () => {
    expect(parseDrops(BANNER)).toEqual([]);
    expect(parseDrops('')).toEqual([]);
  });

  it.each([
    [
      'an error from the agent',
      'Error: Unable to connect to Cilium daemon: dial unix /var/run/cilium/cilium.sock',
    ],
    [
      'a different event type',
      '-> endpoint 1234 flow 0x0 , identity world->12345 state new: 10.0.1.5 -> 10.0.2.7 tcp SYN',
    ],
    ['a cut-off drop line', 'xx drop (Policy denied) flow 0x3c1a4f to endpoint 1234, ifindex 7'],
  ])('throws on %s, naming the line', (_name, line) => {
    expect(() => parseDrops(`${BANNER}${line}\n`)).toThrow(/unexpected drop monitor output at line 3/);
  });
});

describe('parseDrops: hubble observe -o json', () => {
  it('reads a dropped flow, wrapped as current Hubble prints it', () => {
    expect(parseDrops(JSON.stringify({ flow: hubbleFlow({}), node_name: 'n', time: 't' }))).toEqual([
      { ...WORLD_TO_POD, reason: 'POLICY_DENIED', summary: 'TCP Flags: SYN' },
    ]);
  });

  it('reads the older unwrapped flow, UDP ports, and a missing identity as 0', () => {
    const flow = hubbleFlow({
      l4: { UDP: { source_port: 5353, destination_port: 53 } },
      source: { labels: ['reserved:unknown'] },
    });
    const [drop] = parseDrops(JSON.stringify(flow));
    expect(drop).toMatchObject({ sourceIdentity: 0, source: { ip: '10.0.1.5', port: 5353 } });
    expect(isWorldIdentity(drop?.sourceIdentity)).toBe(false);
  });

  it('skips forwarded flows and lost-events notices', () => {
    const lines = [
      JSON.stringify({ flow: hubbleFlow({ verdict: 'FORWARDED', drop_reason_desc: undefined }) }),
      JSON.stringify({ lost_events: { source: 'HUBBLE_RING_BUFFER', num_events_lost: 3 } }),
    ];
    expect(parseDrops(lines.join('\n'))).toEqual([]);
  });

  it.each([
    ['broken JSON', '{"flow": {"verdict": "DROPPED"', /not JSON/],
    ['JSON that is not a flow', '{"hello": "world"}', /not a Hubble flow/],
  ])('throws on %s', (_name, line, message) => {
    expect(() => parseDrops(line)).toThrow(message);
  });
});

describe('isWorldIdentity', () => {
  it('is world, world-ipv4 and world-ipv6 only', () => {
    expect([0, 1, 2, 3, 9, 10, 256].filter(isWorldIdentity)).toEqual([2, 9, 10]);
    expect(isWorldIdentity(undefined)).toBe(false);
  });
});

describe('worldPolicyDropsTo', () => {
  it('keeps only policy denials from world to the pod IP', () => {
    const drops = parseDrops(
      [
        monitorLine('world->12345'),
        monitorLine('world-ipv4->12345'),
        monitorLine('host->12345'),
        monitorLine('world->12345', undefined, 'Stale or unroutable IP'),
        monitorLine('world->12345', '10.0.1.5:43210 -> 10.0.2.8:8080 tcp SYN'),
      ].join('\n'),
    );
    expect(worldPolicyDropsTo('10.0.2.7', drops).map((d) => d.sourceIdentity)).toEqual([2, 9]);
    expect(worldPolicyDropsTo('10.0.2.9', drops)).toEqual([]);
  });
});
