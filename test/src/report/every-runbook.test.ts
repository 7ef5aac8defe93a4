import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport } from '../../../cli/format/report.ts';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { countsText, headline } from '../../../src/chat/report-summary.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Mode, Report } from '../../../src/engine/types.ts';
import { summarize, VERDICT_WORD } from '../../../src/report/summary.ts';
import { fullReportText } from '../../../src/report/text.ts';
import { LIMITS } from '../../../src/slack/block-kit.ts';
import { reportBlocks } from '../../../src/slack/blocks.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

/**
 * Every runbook's real report, in each mode, through every renderer: the same verdict word and the
 * same counts everywhere, inside Slack's limits and 100 columns of terminal for the diagnosis.
 */
describe('every runbook, rendered', () => {
  let broken: SimUnderTest;
  let healthy: SimUnderTest;
  const reports: Report[] = [];
  beforeAll(async () => {
    broken = await startScenario(['all']);
    healthy = await startScenario(['healthy']);
    for (const mode of ['dry-run', 'auto'] as Mode[])
      for (const runbook of RUNBOOKS)
        reports.push(await runRunbook({ runbook, access: broken.access, mode }));
    for (const runbook of RUNBOOKS)
      reports.push(await runRunbook({ runbook, access: healthy.access, mode: 'dry-run' }));
  }, 120_000);
  afterAll(async () => {
    await broken?.sim.close();
    await healthy?.sim.close();
  });

  it('covers every runbook and more than one verdict', () => {
    expect(new Set(reports.map((r) => r.runbook))).toEqual(new Set(RUNBOOKS.map((r) => r.id)));
    expect(new Set(reports.map((r) => r.verdict)).size).toBeGreaterThan(1);
  });

  it('says one verdict word and one set of counts in the CLI, Slack and the full text', () => {
    for (const report of reports) {
      const summary = summarize(report);
      const counts = countsText(summary);
      expect(summary.verdictWord).toBe(VERDICT_WORD[report.verdict]);
      const cli = formatReport(report);
      expect(cli).toContain(`Verdict: ${summary.verdictWord}:`);
      if (summary.counts.found > 0) expect(cli).toContain(`Found (${counts}):`);
      const { text, blocks } = reportBlocks(report, summary);
      expect(text).toContain(headline(report, summary));
      expect(blocks[0]?.type === 'header' && blocks[0].text.text).toContain(summary.verdictWord);
      expect(fullReportText(report, summary)).toContain(`Found (${counts}):`);
    }
  });

  it('keeps every message inside Block Kit limits', () => {
    for (const report of reports) {
      const { blocks } = reportBlocks(report);
      expect(blocks.length).toBeLessThanOrEqual(LIMITS.blocksPerMessage);
      for (const block of blocks)
        if (block.type === 'section') expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    }
  });

  it('gives each run a diagnosis that starts with what it found, and wraps the CLI at 100 columns', () => {
    for (const report of reports) {
      const { diagnosis, counts } = summarize(report);
      if (report.verdict === 'failed') expect(diagnosis).toMatch(/^The run failed/);
      else if (counts.found === 0) expect(diagnosis).toBe(`Nothing wrong found on ${report.cluster}.`);
      else expect(diagnosis).toMatch(/^\d+ (of \d+ fixed and verified|problems? found)/);
      const firstLines = formatReport(report).split('\n').slice(0, 3);
      for (const line of firstLines) expect(line.length).toBeLessThanOrEqual(100);
    }
  });
});
