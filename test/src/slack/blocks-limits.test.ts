import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DoneAction, Finding, PlannedAction, Report, StepReport } from '../../../src/engine/types.ts';
import { type ChatBlock, LIMITS } from '../../../src/slack/block-kit.ts';
import { reportBlocks } from '../../../src/slack/blocks.ts';
import { report, step } from '../chat/reports.ts';

/** Text Slack counts against a message, block by block. */
function texts(block: ChatBlock): string[] {
  switch (block.type) {
    case 'header':
    case 'section':
      return [block.text.text];
    case 'context':
      return block.elements.map((element) => element.text);
    case 'actions':
      return block.elements.flatMap((button) => [button.text.text, button.value]);
    default:
      return [];
  }
}

function expectWithinLimits(blocks: readonly ChatBlock[]): void {
  expect(blocks.length).toBeLessThanOrEqual(LIMITS.blocksPerMessage);
  for (const block of blocks) {
    if (block.type === 'header') expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.headerText);
    if (block.type === 'section') expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    if (block.type === 'context') {
      expect(block.elements.length).toBeLessThanOrEqual(10);
      for (const element of block.elements)
        expect(element.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    }
    if (block.type === 'actions')
      for (const button of block.elements) {
        expect(button.value.length).toBeLessThanOrEqual(2000);
        expect(button.text.text.length).toBeLessThanOrEqual(LIMITS.buttonText);
      }
  }
  const total = blocks.flatMap(texts).reduce((sum, text) => sum + text.length, 0);
  expect(total).toBeLessThanOrEqual(LIMITS.messageText);
}

/** Names as long and odd as real ones get: markup characters, emoji, 300-character pod names. */
const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 });

const shape = fc.record({
  steps: fc.integer({ min: 1, max: 60 }),
  findings: fc.integer({ min: 0, max: 5000 }),
  planned: fc.integer({ min: 0, max: 400 }),
  done: fc.integer({ min: 0, max: 400 }),
  verdict: fc.constantFrom<Report['verdict']>(
    'healthy',
    'remediated',
    'needs-approval',
    'degraded',
    'failed',
  ),
  mode: fc.constantFrom<Report['mode']>('auto', 'dry-run', 'approve'),
  names: fc.array(name, { minLength: 1, maxLength: 8 }),
});

type Shape = typeof shape extends fc.Arbitrary<infer T> ? T : never;

function randomReport(input: Shape): Report {
  const pick = (i: number) => input.names[i % input.names.length] as string;
  const findings: Finding[] = Array.from({ length: input.findings }, (_, i) => ({
    code: i % 3 === 0 ? 'UNMANAGED_POD' : `CODE_${pick(i).slice(0, 40)}`,
    target: `${pick(i)}/${i}`,
    severity: (['critical', 'warning', 'info'] as const)[i % 3] as Finding['severity'],
    message: `${pick(i + 1)} `.repeat(1 + (i % 4)),
    ...(i % 2 === 0 ? { fix: `kubectl delete pod ${pick(i + 2)}` } : {}),
  }));
  const plan: PlannedAction[] = Array.from({ length: input.planned }, (_, i) => ({
    action: 'evict-pod',
    target: `${pick(i)}/${i}`,
    reason: pick(i + 3),
    uid: `uid-${i}`,
  }));
  const done: DoneAction[] = Array.from({ length: input.done }, (_, i) => ({
    action: 'evict-pod',
    target: `${pick(i)}/${i}`,
    outcome: (['done', 'blocked', 'planned', 'skipped', 'failed', 'unconfirmed'] as const)[
      i % 6
    ] as DoneAction['outcome'],
    detail: pick(i + 4),
  }));
  const perStep = Math.ceil(input.findings / input.steps);
  const steps: StepReport[] = Array.from({ length: input.steps }, (_, i) =>
    step(`step-${i}-${pick(i).slice(0, 20)}`, {
      title: pick(i),
      summary: pick(i + 1),
      status: (['pass', 'warn', 'fail', 'skip', 'error'] as const)[i % 5] as StepReport['status'],
      findings: findings.slice(i * perStep, (i + 1) * perStep),
      ...(i === input.steps - 1 ? { plan, done } : {}),
    }),
  );
  return report({ runbook: pick(0), cluster: pick(1), verdict: input.verdict, mode: input.mode, steps });
}

describe('reportBlocks within Block Kit limits', () => {
  it('renders any report, up to 5,000 findings with long odd names, inside every limit', () => {
    fc.assert(
      fc.property(shape, (input) => {
        const { text, blocks } = reportBlocks(randomReport(input));
        expectWithinLimits(blocks);
        expect(text.length).toBeLessThanOrEqual(LIMITS.sectionText);
        // A long list says how many it did not show: nothing vanishes silently.
        const found = blocks.find(
          (block) => block.type === 'section' && block.text.text.startsWith('*Found'),
        );
        if (found?.type === 'section' && input.findings > 10)
          expect(found.text.text).toMatch(/_…and \d+ more_$/);
      }),
      { numRuns: 60 },
    );
  });

  // Found by the property above: 40 step sections left no room for the plan, the lists and the links.
  it('lists the steps in one section when a section each would pass 50 blocks', () => {
    const input: Shape = {
      steps: 40,
      findings: 1,
      planned: 62,
      done: 6,
      verdict: 'needs-approval',
      mode: 'dry-run',
      names: ['pod'],
    };
    const { blocks } = reportBlocks(randomReport(input), undefined, 'https://console.example/runs/r-1');
    expectWithinLimits(blocks);
    const steps = blocks.filter(
      (block) => block.type === 'section' && block.text.text.startsWith('*Steps (40)*'),
    );
    expect(steps).toHaveLength(1);
    expect(blocks.at(-1)).toMatchObject({ type: 'context' });
  });
});
