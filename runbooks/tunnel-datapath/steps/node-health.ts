import { AGENT_CONTAINER } from '../../../src/cluster/agent-pods.ts';
import type { AgentPod, AgentResult } from '../../../src/cluster/types.ts';
import { outcome, statusFor } from '../../../src/engine/outcome.ts';
import type { Evidence, Outcome, Step, StepContext } from '../../../src/engine/types.ts';
import { type HealthReport, parseCiliumHealth } from '../health.ts';
import type { Params } from '../params.ts';
import { type FailedPath, failedPaths, pathEvidence, pathFinding } from '../paths.ts';
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

/** What one agent's health report says, kept small: only its failing paths, as they are judged. */
interface AgentView {
  paths: FailedPath[];
  /** Whether it has probed any other ready node yet. */
  probedAny: boolean;
}

async function agentView(
  ctx: StepContext<Params>,
  agent: AgentPod,
  readyNodes: ReadonlySet<string>,
): Promise<AgentView> {
  const report = await healthReport(ctx, agent);
  const hasPeers = readyNodes.size > (readyNodes.has(agent.node) ? 1 : 0);
  return {
    paths: failedPaths(agent.node, report, readyNodes),
    probedAny:
      !hasPeers || report.nodes.some((entry) => entry.node !== agent.node && readyNodes.has(entry.node)),
  };
}

async function healthReport(ctx: StepContext<Params>, agent: AgentPod): Promise<HealthReport> {
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
  failures: AgentFailure[];
  /** Per source node: the command that probes again from there. */
  recheck: Map<string, string>;
}

/** Failing paths between ready nodes, and the agents whose answer could not be used. */
function judge(results: readonly AgentResult<AgentView | undefined>[]): Judged {
  const judged: Judged = { paths: [], failures: [], recheck: new Map() };
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
    judged.recheck.set(
      agent.node,
      `kubectl -n ${agent.namespace} exec ${agent.name} -c ${AGENT_CONTAINER} -- cilium-health status --probe`,
    );
  }
  return judged;
}

function evidenceOf({ paths, failures }: Judged, notReady: readonly string[]): Evidence[] {
  const hidden = paths.length - MAX_PATH_EVIDENCE;
  return [
    ...paths.slice(0, MAX_PATH_EVIDENCE).map(pathEvidence),
    ...(hidden > 0 ? [{ source: 'cilium-health', text: `${hidden} more failing paths not shown` }] : []),
    ...failures.map(({ node, message }) => ({
      source: `${node}: cilium-health status -o json`,
      text: message,
    })),
    ...(notReady.length > 0
      ? [{ source: 'agents', text: `not checked, agent not ready: ${notReady.join(', ')}` }]
      : []),
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
  const summary =
    findings.length > 0
      ? `${judged.paths.length} failing node-to-node paths from ${sources} of ${checked} nodes`
      : `all node-to-node paths answer (${checked} agents checked)`;
  return outcome(statusFor(findings), summary, { findings, evidence });
}

/**
 * Every ready agent's cilium-health view of the other ready nodes. Agents that are not ready are
 * left out on both ends: their health endpoint may not be up, which says nothing about the tunnel.
 */
export const nodeHealthStep: Step<Params> = {
  id: 'node-to-node-health',
  title: 'cilium-health node-to-node probes',
  writes: false,
  async run(ctx) {
    const routing = await readRouting(ctx);
    if (routing.mode === 'native') return notApplicable(routing);
    const agents = await ctx.cilium.agents();
    const readyNodes = new Set(agents.filter((agent) => agent.ready).map((agent) => agent.node));
    const notReady = agents.filter((agent) => !agent.ready).map((agent) => agent.node);
    const results = await ctx.cilium.forEachAgent(
      async (agent) => (agent.ready ? agentView(ctx, agent, readyNodes) : undefined),
      {
        concurrency: ctx.limits.concurrency,
        signal: ctx.signal,
        onProgress: (done, total) => ctx.progress(done, total, 'agents checked'),
      },
    );
    return outcomeOf(judge(results), describeTunnel(routing), notReady, readyNodes.size);
  },
};
