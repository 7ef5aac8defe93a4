import type { Report } from '../../src/engine/types.ts';
import { formatReport, formatSummary } from './report.ts';

export type OutputFormat = 'table' | 'json' | 'yaml';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'yaml'];

/** A run that ended with no report, or a command that could not start one. */
export interface RunError {
  runbook?: string;
  cluster?: string;
  message: string;
}

/**
 * What `run` prints with -o json or -o yaml, whatever happened: one object, `reports` (one per
 * runbook that ran, so one for a runbook and several for `all`) and `errors` (each run that ended
 * without a report, or why the command started none). Scripts read one shape.
 */
export interface RunOutput {
  reports: Report[];
  errors: RunError[];
}

/** The errors as lines for stderr, where a person looks whatever the format. */
export function errorLines(errors: readonly RunError[]): string {
  return errors
    .map((e) => `${e.runbook && e.cluster ? `${e.runbook} on ${e.cluster}: ` : ''}${e.message}\n`)
    .join('');
}

/**
 * For stdout, as the person asked: readable tables, or the one JSON/YAML object for scripts. The
 * YAML library loads only for -o yaml (every command would otherwise compile it at start).
 */
export async function formatRunOutput(
  output: RunOutput,
  format: OutputFormat,
  summary = true,
): Promise<string> {
  if (format === 'json') return `${JSON.stringify(output, null, 2)}\n`;
  if (format === 'yaml') return (await import('./yaml-output.ts')).yamlText(output);
  return formatRunTables(output, summary);
}

/** The reports as tables, and a summary when there are several. */
export function formatRunTables(output: RunOutput, summary = true): string {
  const { reports } = output;
  const text = reports.map((report) => `${formatReport(report)}\n`).join('');
  return summary && reports.length > 1 ? `${text}${formatSummary(reports)}\n` : text;
}
