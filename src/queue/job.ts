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
  /** A resumed `approve` run: the run it continues and the plan a person approved. */
  resume?: { runId: string; approved: string[] };
}
