import {
  AGENT_CONTAINER,
  type AgentPod,
  type AgentResult,
  agentsLabel,
  defineStep,
  type Evidence,
  type Outcome,
  outcome,
  type StepContext,
} from '../../../sdk/index.ts';
import { type HealthReport, parseCiliumHealth } from '../health.ts';
import type { TunnelDatapathParams } from '../params.ts';
import { type FailedPath, judgeReport, pathEvidence, pathFinding } from '../paths.ts';
import { describeTunnel } from '../routing.ts';
import { notApplicable, readRouting } from './routing-config.ts';

const HEALTH_STATUS = ['cilium-health', 'status', '-o', 'json'];
/** Enough probe errors to show the pattern without flooding the report on a large cluster. */
const MAX_PATH_EVIDENCE = 10;
/**
 * A fully blocked 5,000-node cluster has 25 million failing pairs; past this many, the report lists
 * the first pairs (in a stable order) and counts the rest, which share the same fix.
 */
const MAX_PATH_FINDINGS = 200;

/** What one agent's health report says, kept small: its failing paths and the peers it lacks. */
interface AgentView {
  paths: FailedPath[];
  /** Peers missing from its report (not checked). */
  missing: string[];
  /** Whether it has probed any other node yet. */
  probedAny: boolean;
}

async function agentView(
  ctx: StepContext<TunnelDatapathParams>,
  agent: AgentPod,
  peers: ReadonlyMap<string, boolean>,
): Promise<AgentView> {
  const report = await healthReport(ctx, agent);
  const { paths, missing } = judgeReport(agent.node, report, peers);
  const others = peers.size - (peers.has(agent.node) ? 1 : 0);
  // A report that lists none of the peers has not probed yet: that is no verdict, not N gaps.
  const probedAny = others === 0 || missing.length < others;
  return { paths, missing: probedAny ? missing : [], probedAny };
}

async function healthReport(ctx: StepContext<TunnelDatapathParams>, agent: AgentPod): Promise<HealthReport> {
  const result = await ctx.cilium.exec(agent, HEALTH_STATUS);
  if (result.exitCode !== 0) {
    const why = result.stderr.toString('utf8').trim() || result.message || 'no output';
    throw new Error(`cilium-health status exited ${result.exitCode}: ${why}`);
  }
  return parseCiliumHealth(result.stdout.toString('utf8'));
}

interface AgentFailure {
  node: string;
  message: string;
}

interface Judged {
  paths: FailedPath[];
  /** How many `from->to` pairs the reports do not list (not checked), and the first few. */
  missing: { count: number; first: string[] };
  failures: AgentFailure[];
  /** Per source node: the command that probes again from there. */
  recheck: Map<string, string>;
}

/** Failing paths between ready nodes, and the agents whose answer could not be used. */
function judge(results: readonly AgentResult<AgentView | undefined>[]): Judged {
  const judged: Judged = { paths: [], missing: { count: 0, first: [] }, failures: [], recheck: new Map() };
  for (const result of results) {
    const { agent } = result;
    if (!result.ok) {
      judged.failures.push({ node: agent.node, message: result.error.message });
      continue;
    }
    if (!result.value) continue;
    // An agent that has probed nobody yet proves nothing: not healthy, not broken.
    if (!result.value.probedAny) {
      judged.failures.push({
        node: agent.node,
        message: 'cilium-health has no results for the other nodes yet; retry in a minute',
      });
      continue;
    }
    for (const path of result.value.paths) judged.paths.push(path);
    for (const peer of result.value.missing) {
      if (judged.missing.first.length < 5) judged.missing.first.push(`${agent.node}->${peer}`);
      judged.missing.count++;
    }
    judged.recheck.set(
      agent.node,
      `kubectl -n ${agent.namespace} exec ${agent.name} -c ${AGENT_CONTAINER} -- cilium-health status --probe`,
    );
  }
  return judged;
}

/** What the reports cannot show, said plainly: a gap is never a healthy path. */
function notCheckedEvidence(missing: Judged['missing'], notReady: readonly string[]): Evidence[] {
  return [
    ...(notReady.length > 0
      ? [
          {
            source: 'agents',
            text: `not checked, agent not ready: ${fewOf(notReady)} (their own probes not read; only their nodes' ICMP judged)`,
          },
        ]
      : []),
    ...(missing.count > 0
      ? [
          {
            source: 'cilium-health',
            text: `not checked, missing from the reports: ${missing.count} pairs (${missing.first.join(', ')}${missing.count > missing.first.length ? ', ...' : ''})`,
          },
        ]
      : []),
  ];
}

function fewOf(items: readonly string[]): string {
  return items.length > 5 ? `${items.slice(0, 5).join(', ')} and ${items.length - 5} more` : items.join(', ');
}

function evidenceOf({ paths, failures, missing }: Judged, notReady: readonly string[]): Evidence[] {
  const hidden = paths.length - MAX_PATH_EVIDENCE;
  return [
    ...paths.slice(0, MAX_PATH_EVIDENCE).map(pathEvidence),
    ...(hidden > 0 ? [{ source: 'cilium-health', text: `${hidden} more failing paths not shown` }] : []),
    ...failures.map(({ node, message }) => ({
      source: `${node}: cilium-health status -o json`,
      text: message,
    })),
    ...notCheckedEvidence(missing, notReady),
  ];
}

function byPair(a: FailedPath, b: FailedPath): number {
  return a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0;
}

function outcomeOf(judged: Judged, tunnel: string, notReady: readonly string[], checked: number): Outcome {
  const listed =
    judged.paths.length > MAX_PATH_FINDINGS
      ? [...judged.paths].sort(byPair).slice(0, MAX_PATH_FINDINGS)
      : judged.paths;
  const findings = listed.map((path) => pathFinding(path, tunnel, judged.recheck.get(path.from) ?? ''));
  const unlisted = judged.paths.length - listed.length;
  const evidence = [
    ...evidenceOf(judged, notReady),
    ...(unlisted > 0
      ? [
          {
            source: 'cilium-health',
            text: `${unlisted} more failing paths are not listed as findings (same fix)`,
          },
        ]
      : []),
  ];
  const [first, ...more] = judged.failures;
  if (first) {
    const others = more.length > 0 ? ` (and ${more.length} more)` : '';
    const summary = `cilium-health failed on ${judged.failures.length} of ${checked} agents: ${first.node}: ${first.message}${others}`;
    return outcome('error', summary, { findings, evidence });
  }
  const sources = new Set(judged.paths.map((path) => path.from)).size;
  const gaps =
    judged.missing.count > 0 ? `; ${judged.missing.count} pairs not checked (missing from the reports)` : '';
  if (findings.length > 0)
    return outcome(
      'fail',
      `${judged.paths.length} failing node-to-node paths from ${sources} of ${checked} nodes${gaps}`,
      { findings, evidence },
    );
  if (gaps)
    return outcome('warn', `no failing path among those reported (${checked} agents checked)${gaps}`, {
      evidence,
    });
  return outcome('pass', `all node-to-node paths answer (${checked} agents checked)`, { evidence });
}

/**
 * Every ready agent's cilium-health view of every other node. A node whose agent is not ready is
 * judged by its ICMP answer only (its health endpoint may be down, which says nothing about the
 * tunnel); its own view is not read.
 */
export const nodeHealthStep = defineStep<TunnelDatapathParams>({
  id: 'node-to-node-health',
  title: 'cilium-health node-to-node probes',
  writes: false,
  async run(ctx) {
    const routing = await readRouting(ctx);
    if (routing.mode === 'native') return notApplicable(routing);
    const agents = await ctx.cilium.agents();
    const peers = new Map(agents.map((agent) => [agent.node, agent.ready]));
    const notReady = agents.filter((agent) => !agent.ready).map((agent) => agent.node);
    const results = await ctx.cilium.forEachAgent(
      async (agent) => (agent.ready ? agentView(ctx, agent, peers) : undefined),
      {
        concurrency: ctx.limits.concurrency,
        signal: ctx.signal,
        onProgress: (done, total, failed) => ctx.progress(done, total, agentsLabel(done, failed)),
      },
    );
    return outcomeOf(judge(results), describeTunnel(routing), notReady, agents.length - notReady.length);
  },
});
