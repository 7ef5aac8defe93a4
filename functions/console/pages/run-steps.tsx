/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { formatDuration } from '../../../src/chat/report-summary.ts';
import type { StepReport } from '../../../src/engine/types.ts';
import type { Problem } from '../../../src/report/summary.ts';
import { Table } from './table.tsx';

/** Each problem once, worst first, in its state: the report model's table. */
export function Problems({ found }: { found: readonly Problem[] }) {
  if (found.length === 0) return <p>No problems found.</p>;
  return (
    <Table
      columns={['state', 'severity', 'problem', 'target', 'what', 'fix by hand']}
      rows={found}
      row={(problem) => (
        <tr>
          <td class={`state-${problem.state}`}>{problem.state}</td>
          <td>{problem.severity}</td>
          <td>{problem.code}</td>
          <td>{problem.target}</td>
          <td>
            {problem.message}
            {problem.because ? ` (${problem.because})` : ''}
          </td>
          <td>{problem.state !== 'fixed' ? (problem.fix ?? '') : ''}</td>
        </tr>
      )}
    />
  );
}

function Step({ step }: { step: StepReport }) {
  return (
    <section>
      <h3>
        [{step.status}] {step.title} · {formatDuration(step.durationMs)}
      </h3>
      <p>{step.summary}</p>
      {step.findings.length > 0 ? (
        <ul>
          {step.findings.map((finding) => (
            <li>
              {finding.severity} {finding.code} {finding.target}: {finding.message}
            </li>
          ))}
        </ul>
      ) : null}
      {step.evidence.map((evidence) => (
        <details>
          <summary>{evidence.source}</summary>
          <pre>{evidence.text}</pre>
        </details>
      ))}
    </section>
  );
}

/** Every step with what it found and the evidence it kept. */
export function Steps({ steps }: { steps: readonly StepReport[] }) {
  return (
    <section>
      <h2>Steps</h2>
      {steps.map((step) => (
        <Step step={step} />
      ))}
    </section>
  );
}
