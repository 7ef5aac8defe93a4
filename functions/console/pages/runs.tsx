/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { HistoryPage } from '../../../src/app/app.ts';
import { VERDICT_WORD } from '../../../src/report/summary.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import type { Session } from '../session.ts';
import { Layout } from './layout.tsx';
import { Table } from './table.tsx';

/** The filters the runs list takes, as the query string carries them. */
export const RUN_FILTERS = ['cluster', 'runbook', 'verdict', 'source'] as const;
export type RunFilters = Partial<Record<(typeof RUN_FILTERS)[number], string>>;

export interface RunsView {
  session: Session;
  filters: RunFilters;
  /** What each filter may be: the config's clusters and runbooks, the verdicts and sources. */
  choices: Record<(typeof RUN_FILTERS)[number], readonly string[]>;
  page?: HistoryPage;
  /** Why the page could not be read (a bad filter), said instead of the list. */
  error?: string;
}

export function runLink(runId: string): string {
  return `/ui/runs/${encodeURIComponent(runId)}`;
}

function Filter(props: { name: string; value: string | undefined; choices: readonly string[] }) {
  // A cluster only the run history knows (`run --sim`) is still shown as chosen.
  const choices =
    props.value && !props.choices.includes(props.value) ? [...props.choices, props.value] : props.choices;
  return (
    <label>
      {props.name}
      <select name={props.name}>
        <option value="">any</option>
        {choices.map((choice) => (
          <option value={choice} selected={choice === props.value}>
            {choice}
          </option>
        ))}
      </select>
    </label>
  );
}

function Row({ run }: { run: RunRecord }) {
  const verdict = run.verdict ? VERDICT_WORD[run.verdict] : run.status;
  return (
    <tr>
      <td>
        <a href={runLink(run.runId)}>{run.queuedAt.replace('T', ' ').slice(0, 19)}</a>
      </td>
      <td>{run.cluster}</td>
      <td>{run.runbook}</td>
      <td class={`verdict-${run.verdict ?? run.status}`}>{verdict}</td>
      <td>{run.source}</td>
      <td>{run.summary?.diagnosis ?? run.error ?? run.reason}</td>
    </tr>
  );
}

export function RunsPage(view: RunsView) {
  const next = view.page?.next;
  const nextQuery = new URLSearchParams({
    ...Object.fromEntries(Object.entries(view.filters).filter(([, v]) => v)),
    ...(next ? { next } : {}),
  });
  return (
    <Layout title="Runs" session={view.session}>
      <form class="filters" method="get" action="/ui/runs">
        {RUN_FILTERS.map((name) => (
          <Filter name={name} value={view.filters[name]} choices={view.choices[name]} />
        ))}
        <button type="submit">Filter</button>
      </form>
      {view.error ? <p class="error">{view.error}</p> : null}
      {view.page ? (
        <Table
          columns={['queued (UTC)', 'cluster', 'runbook', 'verdict', 'source', 'diagnosis']}
          rows={view.page.runs}
          row={(run) => <Row run={run} />}
        />
      ) : null}
      {view.page && view.page.runs.length === 0 ? <p>No runs here.</p> : null}
      {next ? <a href={`/ui/runs?${nextQuery}`}>Older runs</a> : null}
    </Layout>
  );
}
