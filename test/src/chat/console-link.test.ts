import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../cli/format/report.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import { consoleRunLink } from '../../../src/chat/console-link.ts';
import { reportBlocks } from '../../../src/slack/blocks.ts';
import { degraded, needsApproval } from './reports.ts';

const CONSOLE = 'https://abc.lambda-url.eu-west-1.on.aws/';

describe("a report's console link", () => {
  it("is the run's page under /ui, only when a console is configured", () => {
    expect(consoleRunLink(CONSOLE, 'run 1/2')).toBe(
      'https://abc.lambda-url.eu-west-1.on.aws/ui/runs/run%201%2F2',
    );
    expect(consoleRunLink('http://127.0.0.1:8787', 'r-1')).toBe('http://127.0.0.1:8787/ui/runs/r-1');
    expect(consoleRunLink(undefined, 'r-1')).toBeUndefined();
    expect(consoleRunLink('', 'r-1')).toBeUndefined();
  });

  it('ends the Slack message, after the approval buttons', () => {
    const { blocks } = reportBlocks(needsApproval, undefined, consoleRunLink(CONSOLE, needsApproval.runId));
    expect(blocks.at(-1)).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `<https://abc.lambda-url.eu-west-1.on.aws/ui/runs/${needsApproval.runId}|Open this run in the console>`,
        },
      ],
    });
    expect(JSON.stringify(reportBlocks(needsApproval).blocks)).not.toContain('/ui/runs/');
  });

  it("ends the CLI's report", () => {
    const lines = formatReport(degraded, CONSOLE).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`  Console: https://abc.lambda-url.eu-west-1.on.aws/ui/runs/${degraded.runId}`);
    expect(formatReport(degraded, undefined)).not.toContain('Console:');
  });

  it('ends each report `responder serve` prints, once it knows its URL', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    let url: string | undefined;
    const sink = consoleSink(out, () => url);
    const target = { channel: '#c', threadKey: 'k' };
    await sink.postReport(degraded, target);
    expect(text).not.toContain('console:');
    url = 'http://127.0.0.1:8787';
    await sink.postReport(needsApproval, { ...target, threadKey: 'k2' });
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      `  console: http://127.0.0.1:8787/ui/runs/${needsApproval.runId}`,
    );
  });
});
