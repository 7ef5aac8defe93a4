import { createInterface } from 'node:readline/promises';
import type { RunbookSet } from '../runbooks/team.ts';
import { createApp } from '../src/app/app.ts';
import type { ResponderConfig } from '../src/config/schema.ts';
import { actionKey } from '../src/engine/actuator.ts';
import type { Report } from '../src/engine/types.ts';
import type { StateStore } from '../src/store/types.ts';
import type { Trigger } from '../src/triggers/types.ts';
import type { ClusterConnector } from './cluster-connector.ts';
import type { OutputFormat, RunOutput } from './format/output.ts';
import { localPorts, localUser } from './local-app.ts';
import { type LocalRunOutput, runLocally } from './local-run.ts';

/** Asks a person a question and returns their answer. */
export type Ask = (question: string) => Promise<string>;

/** The terminal's answer to a question; undefined when there is no terminal to ask. */
export function terminalAsk(): Ask | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (question) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await terminal.question(question);
    } finally {
      terminal.close();
    }
  };
}

export interface PlanDecision {
  applied: boolean;
  output?: LocalRunOutput;
  message: string;
}

/**
 * `run --mode approve` on a terminal, like `terraform apply`: the plan was printed; only "yes"
 * applies exactly that plan (re-checked against the cluster: uids, still eligible, the brake), as
 * an approval from the person at the terminal. Anything else, or no terminal, applies nothing.
 */
export interface ConfirmContext {
  config: ResponderConfig;
  store: StateStore;
  clusters: ClusterConnector;
  output: OutputFormat;
  /** How the applied run's reports are printed (the output format's, otherwise). */
  print?: (output: RunOutput) => string;
  /** The runbooks the config can run (default: the built-in ones). */
  runbooks?: RunbookSet;
  /** Stops the applied run (Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * The writes a "yes" applies: those the plan may make. One a budget, a cap or the brake blocked
 * is not among them: it is shown, not asked about, and the confirmed run does not try it.
 */
export function actionable(report: Report): string[] {
  return report.steps.flatMap((step) =>
    step.done.filter((d) => d.outcome === 'planned').map((d) => actionKey(d.action, d.target)),
  );
}

export async function confirmPlan(
  report: Report,
  ask: Ask | undefined,
  context: ConfirmContext,
): Promise<PlanDecision> {
  const plan = actionable(report);
  if (report.verdict !== 'needs-approval' || plan.length === 0)
    return { applied: false, message: 'nothing waits for approval' };
  if (!ask)
    return {
      applied: false,
      message: `not applied: approve mode asks on a terminal, and there is none (use --mode auto to act within limits)`,
    };
  const blocked = report.steps.flatMap((step) => step.done).filter((d) => d.outcome === 'blocked').length;
  const besides = blocked > 0 ? ` (${blocked} blocked: not asked, not tried)` : '';
  const answer = await ask(
    `Apply these ${plan.length} ${plan.length === 1 ? 'action' : 'actions'} to ${report.cluster}${besides}? Only "yes" applies them: `,
  );
  const decision = answer.trim() === 'yes' ? 'approve' : 'reject';
  const at = new Date().toISOString();
  const trigger: Trigger = {
    source: 'cli',
    receivedAt: at,
    deliveryKey: `cli-approval:${report.runId}`,
    alerts: [],
    actor: localUser(),
    approval: { runId: report.runId, decision, approved: plan },
  };
  if (decision === 'reject') {
    // Recorded as rejected by this person, so the plan cannot be approved later by mistake.
    await createApp({
      ...localPorts(context.config, context.store, undefined, context.runbooks),
      queue: { send: async () => {} },
    }).dispatch(trigger);
    return { applied: false, message: 'not applied: the plan was not confirmed' };
  }
  const output = await runLocally(trigger, context.config, context.store, {
    clusters: context.clusters,
    output: context.output,
    ...(context.runbooks ? { runbooks: context.runbooks } : {}),
    ...(context.print ? { print: context.print } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  });
  return { applied: true, output, message: 'applied the confirmed plan' };
}
