import * as z from 'zod';

/**
 * Packet drops as the agent reports them, one event per line, in every form the tools print:
 * - `cilium-dbg monitor --type drop` (pkg/monitor/datapath_drop.go DumpInfo):
 *   `xx drop (Policy denied) flow 0x1f2e to endpoint 1234, ifindex 7, file bpf_lxc.c:2118, ,
 *   identity world->12345: 10.0.1.5:43210 -> 10.0.2.7:8080 tcp SYN` (`-n` prints `2->12345`;
 *   before 1.8 the reason read `Policy denied (L3)` and there was no ifindex or file);
 * - the monitor.log of Cilium's test runs: `[ts] node: drop: Policy denied (L3) ( 10.10.1.209:58903)
 *   => (kube-system/coredns-x 10.10.1.182:53)`, with no identities;
 * - `hubble observe` compact: `Jun 10 12:50:15.556: 10.8.14.163:43006 (world) <> default/web:8087
 *   (ID:107099) Policy denied DROPPED (TCP Flags: SYN)`, or `policy-verdict:none DENIED`;
 * - `hubble observe -o json`: `{"flow": {"verdict": "DROPPED", "drop_reason_desc": "POLICY_DENIED",
 *   "source": {"identity": 2}, "IP": {...}, "l4": {...}}}` (older Hubble: the flow at top level).
 * Lines that are not drops (agent log lines, banners, forwarded flows, traces) are skipped.
 */
export interface Drop {
  /** `Policy denied` (monitor) or `POLICY_DENIED` (Hubble). */
  reason: string;
  policyDenied: boolean;
  /** Numeric security identities; undefined for a reserved name this parser does not know. */
  sourceIdentity: number | undefined;
  destinationIdentity: number | undefined;
  source?: Address;
  destination?: Address;
  /** The rest, e.g. `tcp SYN`. */
  summary: string;
}

export interface Address {
  ip: string;
  port?: number;
}

/** NumericIdentity.String() names of the reserved identities (pkg/identity). */
const RESERVED_IDENTITIES: Record<string, number> = {
  unknown: 0,
  host: 1,
  world: 2,
  unmanaged: 3,
  health: 4,
  init: 5,
  'remote-node': 6,
  'kube-apiserver': 7,
  ingress: 8,
  'world-ipv4': 9,
  'world-ipv6': 10,
};

/** `world`, and its per-family forms on dual-stack clusters. */
export function isWorldIdentity(identity: number | undefined): boolean {
  return identity === 2 || identity === 9 || identity === 10;
}

/** The drops that show a probe to `ip` denied because it came from world: the incident's signature. */
export function worldPolicyDropsTo(ip: string, drops: readonly Drop[]): Drop[] {
  return drops.filter((d) => d.policyDenied && isWorldIdentity(d.sourceIdentity) && d.destination?.ip === ip);
}

/**
 * Lines that say nothing about drops: banners, agent log lines, other events of the log and
 * compact forms. A monitor trace event is not among them: under `--type drop` it means the filter
 * did not apply.
 */
const NOT_A_DROP = [
  /^(Listening for events on \d+ CPUs|Press Ctrl-C to quit)/,
  /^level=\w+ /,
  /^time="[^"]*" level=/,
  /^\[[^\]]+\] \S+: (?!drop:)/,
  /^\w{3} +\d+ [\d:.]+: .* (FORWARDED|ALLOWED|TRACED|TRANSLATED|REDIRECTED|AUDIT|ERROR)\b/,
];
const MONITOR_DROP = /^xx drop \((.+?)\) (?:flow|to|from|on) .*?identity ([\w.-]+)->([\w.-]+): (.*)$/;
const LEGACY_LOG_DROP = /^\[[^\]]+\] \S+: drop: (.+?) \(\s*(\S+)\) => \((?:.*\s)?(\S+)\)$/;
const HUBBLE_COMPACT_DROP =
  /^\w{3} +\d+ [\d:.]+: (\S+)(?: \(([^)]+)\))? (?:<>|->|<-) (\S+)(?: \(([^)]+)\))? (.+?) (DROPPED|DENIED)(?: \((.*)\))?$/;
/** `10.0.1.5:43210 -> 10.0.2.7:8080 tcp SYN`, `[fd00::1]:80 -> [fd00::2]:8080 tcp SYN`, or ICMP without ports. */
const CONNECTION = /^(\[[^\]]+\]:\d+|[^\s:]+:\d+|\S+) -> (\[[^\]]+\]:\d+|[^\s:]+:\d+|\S+)\s*(.*)$/;

function identityOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const id = /^(?:ID:)?(\d+)$/.exec(text);
  return id ? Number(id[1]) : RESERVED_IDENTITIES[text];
}

/** `Policy denied`, `Policy denied (L3)` (before 1.8), `POLICY_DENIED` (Hubble JSON). */
function isPolicyDenied(reason: string): boolean {
  return /^policy[ _]denied/i.test(reason);
}

/** `ip:port`, `[v6]:port`, or a bare address; a port users redacted (`10.0.a.b:c`) is left out. */
function addressOf(text: string): Address {
  const match = /^\[([^\]]+)\]:(\w+)$/.exec(text) ?? /^([^:]+):(\w+)$/.exec(text);
  if (!match) return { ip: text };
  const port = match[2] as string;
  return /^\d+$/.test(port) ? { ip: match[1] as string, port: Number(port) } : { ip: match[1] as string };
}

function parseMonitorDrop(line: string): Drop | undefined {
  const match = MONITOR_DROP.exec(line);
  if (!match) return undefined;
  const [, reason = '', source = '', destination = '', connection = ''] = match;
  const drop: Drop = {
    reason,
    policyDenied: isPolicyDenied(reason),
    sourceIdentity: identityOf(source),
    destinationIdentity: identityOf(destination),
    summary: connection,
  };
  const parts = CONNECTION.exec(connection);
  if (parts) {
    drop.source = addressOf(parts[1] as string);
    drop.destination = addressOf(parts[2] as string);
    drop.summary = parts[3] as string;
  }
  return drop;
}

function parseLegacyLogDrop(line: string): Drop | undefined {
  const match = LEGACY_LOG_DROP.exec(line);
  if (!match) return undefined;
  const [, reason = '', source = '', destination = ''] = match;
  return {
    reason,
    policyDenied: isPolicyDenied(reason),
    sourceIdentity: undefined,
    destinationIdentity: undefined,
    source: addressOf(source),
    destination: addressOf(destination),
    summary: '',
  };
}

function parseHubbleCompactDrop(line: string): Drop | undefined {
  const match = HUBBLE_COMPACT_DROP.exec(line);
  if (!match) return undefined;
  const [, source = '', sourceId, destination = '', destinationId, reason = '', verdict, detail] = match;
  return {
    reason,
    // A policy verdict event that denied is the same drop, seen by the policy engine.
    policyDenied: isPolicyDenied(reason) || (verdict === 'DENIED' && reason.startsWith('policy-verdict')),
    sourceIdentity: identityOf(sourceId),
    destinationIdentity: identityOf(destinationId),
    source: addressOf(source),
    destination: addressOf(destination),
    summary: detail ?? '',
  };
}

const endpoint = z.object({ identity: z.number().optional() }).optional();
const ports = z.object({ source_port: z.number().optional(), destination_port: z.number().optional() });
const hubbleFlow = z.object({
  verdict: z.string(),
  drop_reason_desc: z.string().optional(),
  source: endpoint,
  destination: endpoint,
  IP: z.object({ source: z.string(), destination: z.string() }).optional(),
  l4: z.object({ TCP: ports.optional(), UDP: ports.optional(), SCTP: ports.optional() }).optional(),
  Summary: z.string().optional(),
});
const hubbleLine = z.union([z.object({ flow: hubbleFlow }), hubbleFlow.transform((flow) => ({ flow }))]);
/** What `hubble observe -o json` prints besides flows. */
const hubbleNotice = z.union([
  z.object({ lost_events: z.object({}) }),
  z.object({ node_status: z.object({}) }),
]);

function withPort(ip: string | undefined, port: number | undefined): Address | undefined {
  if (ip === undefined) return undefined;
  return port === undefined ? { ip } : { ip, port };
}

/** One Hubble JSON line; undefined for flows that were not dropped and for notices. */
function parseHubbleFlow(line: string): Drop | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new Error('not JSON');
  }
  const parsed = hubbleLine.safeParse(json);
  if (!parsed.success) {
    if (hubbleNotice.safeParse(json).success) return undefined;
    throw new Error('not a Hubble flow');
  }
  const { flow } = parsed.data;
  if (flow.verdict !== 'DROPPED') return undefined;
  const reason = flow.drop_reason_desc ?? 'UNKNOWN';
  const l4 = flow.l4?.TCP ?? flow.l4?.UDP ?? flow.l4?.SCTP;
  const drop: Drop = {
    reason,
    policyDenied: isPolicyDenied(reason),
    // protojson leaves zero values out: a missing identity is 0 (unknown).
    sourceIdentity: flow.source?.identity ?? 0,
    destinationIdentity: flow.destination?.identity ?? 0,
    summary: flow.Summary ?? '',
  };
  const source = withPort(flow.IP?.source, l4?.source_port);
  const destination = withPort(flow.IP?.destination, l4?.destination_port);
  if (source) drop.source = source;
  if (destination) drop.destination = destination;
  return drop;
}

/**
 * Parses drop lines in any of the forms above; banners, log lines and other events are skipped.
 * Anything else throws, naming the line: an agent that answered with an error must not read as
 * an agent that saw no drops.
 */
export function parseDrops(output: string): Drop[] {
  const drops: Drop[] = [];
  output.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const fail = (detail: string) =>
      new Error(
        `unexpected drop monitor output at line ${index + 1} (${JSON.stringify(line.slice(0, 120))}): ${detail}`,
      );
    let drop: Drop | undefined;
    if (line.startsWith('{')) {
      try {
        drop = parseHubbleFlow(line);
      } catch (error) {
        throw fail((error as Error).message);
      }
    } else {
      drop = parseMonitorDrop(line) ?? parseLegacyLogDrop(line) ?? parseHubbleCompactDrop(line);
      if (!drop && !NOT_A_DROP.some((pattern) => pattern.test(line))) throw fail('not a drop event');
    }
    if (drop) drops.push(drop);
  });
  return drops;
}
