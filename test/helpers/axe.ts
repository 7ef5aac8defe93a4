import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's WCAG 2.x A/AA and best-practice rules on the page as it is: the serious and critical
 * violations. axe is evaluated by the browser's debugger, not as a page script, so the page's
 * Content-Security-Policy (no script at all) stays as strict as it is served.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (o: object) => Promise<AxeResults> } }).axe;
    const results = await axe.run({ runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

interface AxeResults {
  violations: { id: string; impact?: string; help: string; nodes: { target: string[] }[] }[];
}
