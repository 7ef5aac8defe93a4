/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { RunRecord, RunTrigger } from '../../../src/store/types.ts';
import type { Alert } from '../../../src/triggers/types.ts';
import { Table } from './table.tsx';

function Pairs({ values }: { values: Record<string, string> }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <span>none</span>;
  return (
    <dl>
      {entries.map(([key, value]) => (
        <>
          <dt>{key}</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

function AlertRow({ alert }: { alert: Alert }) {
  return (
    <tr>
      <td>{alert.name}</td>
      <td>{alert.status}</td>
      <td>{alert.startsAt ?? ''}</td>
      <td>
        <Pairs values={alert.labels} />
      </td>
      <td>
        <Pairs values={alert.annotations} />
      </td>
    </tr>
  );
}

function Alerts({ trigger }: { trigger: RunTrigger }) {
  if (trigger.alertCount === 0) return null;
  const more = trigger.alertCount - trigger.alerts.length;
  return (
    <>
      <Table
        columns={['alert', 'status', 'since', 'labels', 'annotations']}
        rows={trigger.alerts}
        row={(alert) => <AlertRow alert={alert} />}
      />
      {more > 0 ? <p>…and {more} more alerts in the group.</p> : null}
    </>
  );
}

/** What started the run: the source and who, the alerts with their labels and annotations, the alarm, the schedule. */
export function TriggerSection({ record }: { record: RunRecord }) {
  const trigger = record.trigger;
  return (
    <section>
      <h2>Trigger</h2>
      <dl>
        <dt>source</dt>
        <dd>{record.source}</dd>
        <dt>by</dt>
        <dd>
          {trigger
            ? `${trigger.actor.name ?? trigger.actor.id}${trigger.actor.name ? ` (${trigger.actor.id})` : ''}`
            : record.actor}
        </dd>
        <dt>reason</dt>
        <dd>{record.reason}</dd>
        {trigger ? (
          <>
            <dt>received</dt>
            <dd>{trigger.receivedAt}</dd>
          </>
        ) : null}
        {trigger?.schedule ? (
          <>
            <dt>schedule</dt>
            <dd>{trigger.schedule.name}</dd>
          </>
        ) : null}
        {trigger?.alarm ? (
          <>
            <dt>alarm</dt>
            <dd>
              {trigger.alarm.name} ({trigger.alarm.state}, {trigger.alarm.region}
              {trigger.alarm.accountId ? `, account ${trigger.alarm.accountId}` : ''})
              <Pairs values={trigger.alarm.dimensions} />
            </dd>
          </>
        ) : null}
      </dl>
      {trigger ? <Alerts trigger={trigger} /> : null}
    </section>
  );
}
