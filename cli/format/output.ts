import { stringify } from 'yaml';
import type { Report } from '../../src/engine/types.ts';
import { formatReport, formatSummary } from './report.ts';

export type OutputFormat = 'table' | 'json' | 'yaml';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'yaml'];

/** Reports as the person asked: readable tables, or JSON/YAML for scripts (one object for one report). */
export function formatReports(reports: readonly Report[], format: OutputFormat, summary = true): string {
  const data = reports.length === 1 ? reports[0] : reports;
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  if (format === 'yaml') return stringify(data);
  const text = reports.map((report) => `${formatReport(report)}\n`).join('');
  return summary && reports.length > 1 ? `${text}${formatSummary(reports)}\n` : text;
}
