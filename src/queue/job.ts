import type { Mode } from '../engine/types.ts';
import type { Trigger } from '../triggers/types.ts';

/** One runbook run on one cluster, made from a Trigger by the routes in the config. */
export interface Job {
  id: string;
  runbook: string;
  cluster: string;
  mode: Mode;
  params: Record<string, unknown>;
  /** Who set each param: `config` (the cluster's params), `route`, or the person who asked (`<@U…>`, a local user). */
  paramsBy?: Record<string, string>;
  trigger: Trigger;
  /** Same key, same run: repeated deliveries of one trigger for one (cluster, runbook) collapse into one job. */
  dedupeKey: string;
  /**
   * A run this job goes on with: an approved plan (the `approve` run it resumes, and the plan a
   * person approved), or a run continuing in its `invocation`-th worker invocation from the
   * checkpoint the one before saved (`pair`: its first job held the pair of its automatic runs).
   */
  resume?: { runId: string; approved: string[]; invocation?: number; pair?: boolean };
}
