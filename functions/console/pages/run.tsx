/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { formatDuration } from '../../../src/chat/report-summary.ts';
import type { RunSummary } from '../../../src/report/summary.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import type { Session } from '../session.ts';
import { Layout } from './layout.tsx';
import { Problems, Steps } from './run-steps.tsx';
import { TriggerSection } from './run-trigger.tsx';
import { runLink } from './runs.tsx';
import { Table } from './table.tsx';

export interface RunView {
  session: Session;
  record: RunRecord;
  summary?: RunSummary;
  /** The Slack thread the report went to, when chat gave a link. */
  threadLink?: string;
  /** Approve and Reject are offered: the run waits for approval and the reader is its approver. */
  mayDecide: boolean;
  /** What a decision just posted came to. */
  notice?: string;
}

function Field(props: { name: string; value: string | undefined }) {
  if (props.value === undefined) return null;
  return (
    <>
      <dt>{props.name}</dt>
      <dd>{props.value}</dd>
    </>
  );
}

function Params({ record }: { record: RunRecord }) {
  const params = Object.entries(record.params ?? {});
  if (params.length === 0) return <p>No params: the runbook's defaults.</p>;
  return (
    <Table
      columns={['param', 'value', 'set by']}
      rows={params}
      row={([key, value]) => (
        <tr>
          <td>{key}</td>
          <td>{JSON.stringify(value)}</td>
          <td>{record.paramsBy?.[key] ?? ''}</td>
        </tr>
      )}
    />
  );
}

function Approval({ view }: { view: RunView }) {
  const { record } = view;
  const decision = record.decision;
  return (
    <section>
      <h2>Approval</h2>
      {decision ? (
        <p>
          {decision.outcome} by {decision.byName ?? decision.by} ({decision.by}) at {decision.at}
          {decision.approved ? `: ${decision.approved.join(', ')}` : ''}
        </p>
      ) : (
        <p>
          {record.verdict === 'needs-approval' ? 'Waiting for an approver.' : 'No approval was asked for.'}
        </p>
      )}
      {record.plan.length > 0 ? (
        <ul>
          {record.plan.map((key) => (
            <li>{key}</li>
          ))}
        </ul>
      ) : null}
      {view.mayDecide ? (
        <form method="post" action={`${runLink(record.runId)}/decision`}>
          <input type="hidden" name="csrf" value={view.session.csrf} />
          <button type="submit" name="decision" value="approve">
            Approve the {record.plan.length} planned writes
          </button>{' '}
          <button type="submit" name="decision" value="reject">
            Reject
          </button>
        </form>
      ) : null}
    </section>
  );
}

function Writes({ record, summary }: { record: RunRecord; summary?: RunSummary }) {
  return (
    <section>
      <h2>Writes</h2>
      {record.actions.length === 0 ? (
        <p>None journaled.</p>
      ) : (
        <ul>
          {record.actions.map((line) => (
            <li>{line}</li>
          ))}
        </ul>
      )}
      {summary && summary.unconfirmed.length > 0 ? (
        <p class="error">
          Unconfirmed (sent, answer lost; they may have happened):{' '}
          {summary.unconfirmed.map((a) => `${a.action} ${a.target}`).join(', ')}
        </p>
      ) : null}
    </section>
  );
}

/** One run, as the report model says it, then everything behind it. */
export function RunPage(view: RunView) {
  const { record, summary } = view;
  const report = record.report;
  const title = `${record.runbook} on ${record.cluster}`;
  return (
    <Layout title={title} session={view.session}>
      {view.notice ? <p class="notice">{view.notice}</p> : null}
      <p class="diagnosis">
        {summary?.diagnosis ?? record.summary?.diagnosis ?? record.error ?? record.status}
      </p>
      {record.error && summary ? <p class="error">{record.error}</p> : null}
      <dl>
        <Field name="run" value={record.runId} />
        <Field name="verdict" value={summary?.verdictWord ?? record.verdict ?? record.status} />
        <Field name="status" value={record.status} />
        <Field name="mode" value={record.mode} />
        <Field name="queued" value={record.queuedAt} />
        <Field name="started" value={record.startedAt} />
        <Field name="finished" value={record.finishedAt} />
        <Field name="took" value={report ? formatDuration(report.timings.durationMs) : undefined} />
      </dl>
      <p>
        {view.threadLink ? (
          <>
            <a href={view.threadLink}>Slack thread</a> ·{' '}
          </>
        ) : null}
        {report ? <a href={`${runLink(record.runId)}/report.txt`}>Full report (text)</a> : null}
      </p>
      <h2>Problems</h2>
      {summary ? <Problems found={summary.found} /> : <p>No report yet.</p>}
      <Approval view={view} />
      <Writes record={record} {...(summary ? { summary } : {})} />
      <TriggerSection record={record} />
      <section>
        <h2>Params</h2>
        <Params record={record} />
      </section>
      {report ? <Steps steps={report.steps} /> : null}
    </Layout>
  );
}
