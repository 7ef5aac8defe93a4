import type { Context, Handler } from 'hono';
import type { App } from '../../../src/app/app.ts';
import { UnknownNameError } from '../../../src/app/unknown-name.ts';
import { VERDICT_WORD } from '../../../src/report/summary.ts';
import { TRIGGER_SOURCES } from '../../../src/triggers/types.ts';
import { TriggerError } from '../../../src/validation/trigger-error.ts';
import { RUN_FILTERS, type RunFilters, RunsPage } from '../pages/runs.tsx';
import type { ConsoleEnv } from '../session.ts';

/** Runs on a page: what a person reads at a glance, and the bench's measure. */
export const RUNS_PER_PAGE = 50;

/** The filters given (an empty select means any), each once. */
function filtersOf(c: Context): RunFilters {
  return Object.fromEntries(
    RUN_FILTERS.map((name) => [name, c.req.query(name)]).filter(([, value]) => value),
  ) as RunFilters;
}

/** `/ui/runs`: the audit trail, newest first, filtered, paged by the store's cursor. */
export function runsPage(responder: App): Handler<ConsoleEnv> {
  const choices = {
    cluster: responder.ports.config.clusters.map((cluster) => cluster.name),
    runbook: responder.ports.runbookIds,
    verdict: Object.keys(VERDICT_WORD),
    source: TRIGGER_SOURCES,
  };
  return async (c) => {
    const filters = filtersOf(c);
    const next = c.req.query('next');
    const view = { session: c.get('session'), filters, choices };
    try {
      // Checked by the history's own schema, as the operator API's query is.
      const query: Record<string, string> = { ...filters, limit: String(RUNS_PER_PAGE) };
      if (next) query.next = next;
      const page = await responder.history(query);
      return c.html(RunsPage({ ...view, page }));
    } catch (error) {
      if (!(error instanceof TriggerError || error instanceof UnknownNameError)) throw error;
      return c.html(RunsPage({ ...view, error: error.message }), 400);
    }
  };
}
