import type { Evidence, Finding } from '../../sdk/index.ts';
import { type AgentCgroupFacts, hookSetsOf, judgePlacement, placementEvidence } from './placement.ts';

/** An agent whose hooks sit where they should: nothing more is kept of it. */
export const HEALTHY = 'healthy';

/** An agent with findings: those, and the one line of evidence the report shows for it. */
export interface Flagged {
  node: string;
  findings: Finding[];
  evidence: Evidence;
}

export type AgentJudgement = Flagged | typeof HEALTHY;

/**
 * Judges agents as the fan-out reads them: the findings and evidence of a flagged agent, a bare
 * HEALTHY for the others, and the evidence of the first healthy agent (in the agents' order) as
 * the sample a healthy report shows. The walk itself is dropped once judged; what is kept of the
 * judgements is the tally's (agent-tally.ts).
 */
export class Judgements {
  #sample: { index: number; evidence: Evidence } | undefined;

  /** `index` is the agent's place in the agents' order. */
  judge(facts: AgentCgroupFacts, index: number): AgentJudgement {
    // The hooks are located once, for the judgement and the evidence.
    const sets = hookSetsOf(facts);
    const findings = judgePlacement(facts, sets);
    if (findings.length > 0)
      return { node: facts.agent.node, findings, evidence: placementEvidence(facts, sets) };
    if (this.#sample === undefined || index < this.#sample.index)
      this.#sample = { index, evidence: placementEvidence(facts, sets) };
    return HEALTHY;
  }

  /** What "healthy" rests on: the first healthy agent's signals. */
  get sample(): Evidence | undefined {
    return this.#sample?.evidence;
  }
}
