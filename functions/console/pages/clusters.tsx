/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { ClusterOverview, RunbookOnCluster } from '../../../src/app/cluster-overview.ts';
import { VERDICT_WORD } from '../../../src/report/summary.ts';
import type { BrakeState } from '../../../src/store/types.ts';
import type { Session } from '../session.ts';
import { Layout } from './layout.tsx';
import { runLink } from './runs.tsx';
import { Table } from './table.tsx';

function Brake({ brake }: { brake: BrakeState }) {
  const frees = brake.used > 0 ? `; the oldest stops counting at ${brake.windowEndsAt}` : '';
  return (
    <p class={brake.engaged ? 'error' : ''}>
      Brake {brake.engaged ? 'engaged: no writes until it frees' : 'released'}: {brake.used} of {brake.limit}{' '}
      writes in the window{frees}.
    </p>
  );
}

function RunbookRow({ entry }: { entry: RunbookOnCluster }) {
  const run = entry.lastRun;
  return (
    <tr>
      <td>{entry.runbook}</td>
      <td>{run ? <a href={runLink(run.runId)}>{run.queuedAt}</a> : 'never run'}</td>
      <td class={run ? `verdict-${run.verdict ?? run.status}` : ''}>
        {run ? (run.verdict ? VERDICT_WORD[run.verdict] : run.status) : ''}
      </td>
      <td>{run?.summary?.diagnosis ?? run?.error ?? ''}</td>
      <td>{entry.lease ? `held by ${entry.lease.owner} until ${entry.lease.expiresAt}` : 'free'}</td>
    </tr>
  );
}

/** Per cluster: the brake, and each runbook's last run and lease. */
export function ClustersPage(props: { session: Session; clusters: readonly ClusterOverview[] }) {
  return (
    <Layout title="Clusters" session={props.session}>
      {props.clusters.map((cluster) => (
        <section>
          <h2>{cluster.cluster}</h2>
          <Brake brake={cluster.brake} />
          <Table
            columns={['runbook', 'last run', 'verdict', 'diagnosis', 'lease']}
            rows={cluster.runbooks}
            row={(entry) => <RunbookRow entry={entry} />}
          />
        </section>
      ))}
    </Layout>
  );
}
