import {
  type AgentResult,
  type Evidence,
  errorCause,
  type Finding,
  type Outcome,
  outcome,
} from '../../sdk/index.ts';

type Failed = Extract<AgentResult<unknown>, { ok: false }>;

/**
 * One line for agents a step could not check, grouped by reason so a missing permission reads
 * once, e.g. `could not check 4 of 4 agents: forbidden: create pods/exec (ip-10-0-1-5, ...)`.
 */
function summaryOf(failed: readonly Failed[], total: number): string {
  const byReason = new Map<string, string[]>();
  for (const { agent, error } of failed) {
    const reason = errorCause(error);
    byReason.set(reason, [...(byReason.get(reason) ?? []), agent.node]);
  }
  const reasons = [...byReason].map(([reason, nodes]) => {
    const shown = nodes.slice(0, 3).join(', ') + (nodes.length > 3 ? `, +${nodes.length - 3} more` : '');
    return `${reason} (${shown})`;
  });
  return `could not check ${failed.length} of ${total} agents: ${reasons.join('; ')}`;
}

/**
 * The step's error when some agents could not be checked: what the others showed is kept, and
 * each failed agent's full error goes to the evidence.
 */
export function agentFailureOutcome(
  failed: readonly Failed[],
  total: number,
  seen: { findings: Finding[]; evidence: Evidence[] },
): Outcome {
  const errors = failed.map(({ agent, error }) => ({
    source: `${agent.node}: ${agent.name}`,
    text: error.message,
  }));
  return outcome('error', summaryOf(failed, total), {
    findings: seen.findings,
    evidence: [...seen.evidence, ...errors],
  });
}
