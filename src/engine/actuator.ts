import { provenNotApplied } from '../cluster/retry.ts';
import {
  type CiliumFacade,
  type EvictionResult,
  KubeError,
  type KubeFacade,
  RESOURCES,
} from '../cluster/types.ts';
import { AGENT_NOT_READY_TAINT, exclusions, type Hold, holdFor } from './exclusions.ts';
import { podFacts } from './pod-facts.ts';
import type {
  Actuator,
  Brake,
  DoneAction,
  Limits,
  Logger,
  Mode,
  PodTarget,
  Report,
  WriteJournal,
} from './types.ts';

export interface ActuatorOptions {
  cluster: string;
  kube: KubeFacade;
  cilium: CiliumFacade;
  mode: Mode;
  limits: Limits;
  brake: Brake;
  log: Logger;
  /** `<action>:<target>` keys a person approved; only these act in `approve` and for agent restarts. */
  approved?: ReadonlySet<string>;
  /** The run's deadline or stop: once it aborts, no write happens (a step may outlive it in the background). */
  signal?: AbortSignal;
  /** Why this run may no longer write (it lost its lease), checked as each write is sent. */
  fence?: () => string | undefined;
  /** Each write, journaled before it is sent and with its outcome after (the audit record). */
  journal?: WriteJournal;
  /** What the run's earlier invocations counted against the caps: the caps are the run's, not an invocation's. */
  used?: { evictions: number; agentRestarts: number };
}

/** A refusal in a report's words. */
function holdReason(hold: Hold): string {
  switch (hold.kind) {
    case 'excluded':
      return `excluded by selector ${hold.selector}`;
    case 'host-network':
      return 'hostNetwork pod (Cilium never manages it)';
    case 'mirror':
      return 'static (mirror) pod';
    case 'agent-not-ready':
      return `the Cilium agent on ${hold.node} is not ready (${hold.cause})`;
    case 'no-controller':
      return 'no controller owns it, so nothing would recreate it';
  }
}

const BRAKE_ENGAGED = 'brake engaged: too many cluster writes in this window';

/** How an `unconfirmed` write's detail begins, in every reader. */
export const MAY_HAVE_HAPPENED = 'may have happened, its answer was lost';

/** How many writes of a run the brake held back (what the deploy counts and alarms on). */
export function brakeRefusals(report: Report): number {
  return report.steps.flatMap((step) => step.done).filter((done) => done.detail === BRAKE_ENGAGED).length;
}

export function actionKey(action: string, target: string): string {
  return `${action}:${target}`;
}

/** The actuator as the engine holds it: steps see only the Actuator; the engine also reads its journal. */
export interface JournaledActuator extends Actuator {
  /** Every decision so far, in order, including those of a step the deadline cut off. */
  journal(): readonly DoneAction[];
  /** Resolves once no write is in flight, so a report lists every write that happened. */
  settled(): Promise<void>;
  /** What the run counted against its caps so far (a checkpoint carries it to the next invocation). */
  used(): { evictions: number; agentRestarts: number };
}

/**
 * The one door for cluster writes. Every decision, including each refusal, comes back as a
 * DoneAction with its reason, so a report shows what was done and what was left alone and why.
 */
export function createActuator(options: ActuatorOptions): JournaledActuator {
  const { kube, cilium, limits, log } = options;
  const counts = { evictions: 0, agentRestarts: 0, ...options.used };
  // A plan counts against the caps so it shows exactly what a run would do; in a resumed run only
  // the approved writes happen, so what is left unapproved must not use up the cap.
  const countsPlans = (options.approved?.size ?? 0) === 0;

  /** Why this pod must not be touched, checked on fresh state; undefined when it may be. */
  async function exclusion(target: PodTarget, pod: ReturnType<typeof podFacts>): Promise<string | undefined> {
    const node = await kube.get(RESOURCES.nodes, undefined, target.node);
    // Stryker disable next-line OptionalChaining,ArrayDeclaration: the API always returns a Node's spec; a made-up taint key matches nothing
    const taints = ((node.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).map(
      (t) => t.key,
    );
    const agent = (await cilium.agents()).find((a) => a.node === target.node);
    const hold = holdFor(
      pod,
      {
        agentReady: new Map(agent ? [[target.node, agent.ready]] : []),
        // Stryker disable next-line ArrayDeclaration: a made-up node name in the set matches no pod's node
        tainted: new Set(taints.includes(AGENT_NOT_READY_TAINT) ? [target.node] : []),
      },
      exclusions(limits.excludeSelectors),
    );
    return hold ? holdReason(hold) : undefined;
  }

  /**
   * Deadline, cap, mode and approval, in that order; undefined means this write may go (the brake
   * is asked last, right before writing). The cap counts planned writes too, so a dry-run plan
   * shows exactly what `auto` would do.
   */
  function permission(
    action: string,
    target: string,
    cap: { used: number; max: number },
    needsApproval: boolean,
  ) {
    const late = lateStop();
    if (late) return { outcome: 'skipped' as const, detail: late };
    if (cap.used >= cap.max)
      return { outcome: 'skipped' as const, detail: `over the per-run cap of ${cap.max}` };
    const approved = options.approved?.has(actionKey(action, target)) ?? false;
    if (options.mode === 'dry-run') return { outcome: 'planned' as const, detail: 'dry-run' };
    if ((options.mode === 'approve' || needsApproval) && !approved) {
      return { outcome: 'planned' as const, detail: 'needs approval' };
    }
    return undefined;
  }

  /** The deadline (a timer's DOMException), or the reason the run was stopped from outside (Ctrl-C). */
  const stopped = (signal: AbortSignal) => {
    const reason: unknown = signal.reason;
    const why =
      reason instanceof Error && !(reason instanceof DOMException) ? reason.message : 'deadline passed';
    return `${why}: the run is over, nothing written`;
  };

  /** The brake counts every write that may have happened: one that provably did not is given back. */
  async function refunded(done: DoneAction): Promise<DoneAction> {
    await options.brake.refund?.(options.cluster);
    return done;
  }

  /**
   * A write that threw. It is given back, and left out of the cap, only when it provably did not
   * happen (refused before acting, or never sent); otherwise it may have happened: `unconfirmed`,
   * counted against the brake and the cap, for a verifying step to check on the cluster.
   */
  function writeFailed(
    error: unknown,
    count: () => void,
    result: (outcome: DoneAction['outcome'], detail: string) => DoneAction,
  ): Promise<DoneAction> | DoneAction {
    const reason = error instanceof Error ? error.message : String(error);
    if (provenNotApplied(error)) return refunded(result('failed', reason));
    count();
    return result('unconfirmed', `${MAY_HAVE_HAPPENED}: ${reason}`);
  }

  /** Checked the moment a write is sent, after every slower check: the deadline and the lease. */
  function lateStop(): string | undefined {
    if (options.signal?.aborted) return stopped(options.signal);
    return options.fence?.();
  }

  /**
   * A server-side dry run tells a plan which evictions a PodDisruptionBudget would refuse, and
   * whether the real one would be allowed at all (a 403 shows up in the plan, not only in auto).
   */
  async function previewEviction(target: PodTarget): Promise<{ blockedBy?: string; caveat?: string }> {
    try {
      const preview = await kube.evict(target.namespace, target.name, { uid: target.uid, dryRun: true });
      // Stryker disable next-line ConditionalExpression: an allowed preview carries no message, so blockedBy stays unset
      return preview.outcome === 'blocked-by-pdb' ? { blockedBy: preview.message } : {};
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn('eviction preview failed; PodDisruptionBudgets not checked', { error: reason });
      return { caveat: `PodDisruptionBudgets not checked: ${reason}` };
    }
  }

  /** Writes journaled as being sent whose outcome is not journaled yet, by `<action> <target>`. */
  const sending = new Set<string>();

  /**
   * Journals a write right before it is sent. A journal that cannot record it (the run's record
   * was taken over by another worker) stops it: a write the audit record would not show is not sent.
   */
  async function announce(action: string, target: string): Promise<string | undefined> {
    if (!options.journal) return undefined;
    try {
      await options.journal.sending(action, target);
      sending.add(`${action} ${target}`);
      return undefined;
    } catch (error) {
      return `not journaled, so not sent: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** The outcome of a journaled write, however it came out (done, refused, failed). */
  async function land(done: DoneAction): Promise<DoneAction> {
    if (!sending.delete(`${done.action} ${done.target}`)) return done;
    await options.journal
      ?.landed(done)
      .catch((error: unknown) =>
        log.warn('could not journal the outcome of a write', { ...done, error: String(error) }),
      );
    return done;
  }

  const decisions: DoneAction[] = [];
  const inFlight = new Set<Promise<DoneAction>>();

  function record(done: DoneAction): DoneAction {
    log.info('actuator decision', { ...done });
    decisions.push(done);
    return done;
  }

  /** Tracks a decision while it is being made, so the engine can wait for it to land. */
  function tracked(made: Promise<DoneAction>): Promise<DoneAction> {
    const decision = made.then(land);
    inFlight.add(decision);
    void decision.finally(() => inFlight.delete(decision));
    return decision;
  }

  const doors: Actuator = {
    async evictPod(target, reason) {
      const action = 'evict-pod';
      const where = `${target.namespace}/${target.name}`;
      const result = (outcome: DoneAction['outcome'], detail?: string) =>
        record({ action, target: where, outcome, ...(detail ? { detail } : {}) });
      try {
        const pod = podFacts(await kube.get(RESOURCES.pods, target.namespace, target.name));
        if (pod.uid !== target.uid)
          return result('skipped', 'the pod was replaced since it was checked (uid changed)');
        const excluded = await exclusion(target, pod);
        if (excluded) return result('skipped', excluded);
        const stop = permission(
          action,
          where,
          { used: counts.evictions, max: limits.maxEvictionsPerRun },
          false,
        );
        if (stop && stop.outcome !== 'planned') return result(stop.outcome, stop.detail);
        // A plan shows which evictions a budget would refuse; before a real one, the preview keeps a
        // refused eviction from spending the brake's budget.
        const preview = await previewEviction(target);
        if (preview.blockedBy) return result('blocked', preview.blockedBy);
        if (stop) {
          if (countsPlans) counts.evictions++;
          return result(
            'planned',
            `${stop.detail}: ${reason}${preview.caveat ? ` (${preview.caveat})` : ''}`,
          );
        }
        if (!(await options.brake.tryWrite(options.cluster))) return result('blocked', BRAKE_ENGAGED);
        const late = lateStop() ?? (await announce(action, where));
        if (late) return refunded(result('skipped', late));
        let evicted: EvictionResult;
        try {
          evicted = await kube.evict(target.namespace, target.name, { uid: target.uid });
        } catch (error) {
          return await writeFailed(error, () => counts.evictions++, result);
        }
        switch (evicted.outcome) {
          case 'evicted':
            counts.evictions++;
            return result('done', reason);
          case 'blocked-by-pdb':
            return refunded(result('blocked', evicted.message));
          case 'gone':
            return refunded(result('skipped', 'the pod is already gone'));
          case 'uid-changed':
            return refunded(result('skipped', 'the pod was replaced since it was checked (uid changed)'));
        }
      } catch (error) {
        if (error instanceof KubeError && error.kind === 'not-found')
          return result('skipped', 'the pod is already gone');
        return result('failed', error instanceof Error ? error.message : String(error));
      }
    },

    async restartAgent(node, reason) {
      const action = 'restart-agent';
      const result = (outcome: DoneAction['outcome'], detail?: string) =>
        record({ action, target: node, outcome, ...(detail ? { detail } : {}) });
      try {
        const agent = (await cilium.agents()).find((a) => a.node === node);
        if (!agent) return result('skipped', `no Cilium agent pod on ${node}`);
        const stop = permission(
          action,
          node,
          { used: counts.agentRestarts, max: limits.maxAgentRestartsPerRun },
          true,
        );
        if (stop?.outcome === 'planned') {
          if (countsPlans) counts.agentRestarts++;
          return result('planned', `${stop.detail}: ${reason}`);
        }
        if (stop) return result(stop.outcome, stop.detail);
        if (!(await options.brake.tryWrite(options.cluster))) return result('blocked', BRAKE_ENGAGED);
        const late = lateStop() ?? (await announce(action, node));
        if (late) return refunded(result('skipped', late));
        try {
          await kube.deletePod(agent.namespace, agent.name, agent.uid);
        } catch (error) {
          return await writeFailed(error, () => counts.agentRestarts++, result);
        }
        counts.agentRestarts++;
        return result('done', reason);
      } catch (error) {
        return result('failed', error instanceof Error ? error.message : String(error));
      }
    },
  };
  return {
    evictPod: (target, reason) => tracked(doors.evictPod(target, reason)),
    restartAgent: (node, reason) => tracked(doors.restartAgent(node, reason)),
    journal: () => decisions,
    used: () => ({ ...counts }),
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
