import { describe, expect, it } from 'vitest';
import { parseApprovalValue } from '../../../src/slack/approval-value.ts';
import type { ActionsBlock, ChatBlock } from '../../../src/slack/block-kit.ts';
import { reportBlocks } from '../../../src/slack/blocks.ts';
import { degraded, eviction, healthy, needsApproval, report, step, unmanagedPod } from '../chat/reports.ts';

function blockText(block: ChatBlock): string {
  switch (block.type) {
    case 'header':
    case 'section':
      return block.text.text;
    case 'context':
      return block.elements.map((element) => element.text).join(' ');
    default:
      return '';
  }
}

function allText(blocks: readonly ChatBlock[]): string {
  return blocks.map(blockText).join('\n');
}

function actionsBlocks(blocks: readonly ChatBlock[]): ActionsBlock[] {
  return blocks.filter((block): block is ActionsBlock => block.type === 'actions');
}

function sectionWith(blocks: readonly ChatBlock[], title: string): string {
  const found = blocks.find((block) => block.type === 'section' && block.text.text.startsWith(title));
  if (!found) throw new Error(`no section starting with ${title}`);
  return blockText(found);
}

/** Slack refuses the whole message when one of these is broken. */
function expectWithinBlockKitLimits(blocks: readonly ChatBlock[]): void {
  expect(blocks.length).toBeLessThanOrEqual(50);
  for (const block of blocks) {
    if (block.type === 'header') expect(block.text.text.length).toBeLessThanOrEqual(150);
    if (block.type === 'section') expect(block.text.text.length).toBeLessThanOrEqual(3000);
    if (block.type === 'context') expect(block.elements.length).toBeLessThanOrEqual(10);
    if (block.type === 'actions') {
      for (const button of block.elements) {
        expect(button.value.length).toBeLessThanOrEqual(2000);
        expect(button.text.text.length).toBeLessThanOrEqual(75);
      }
    }
  }
}

describe('reportBlocks', () => {
  it('heads a healthy report with runbook, cluster and verdict emoji, and has no buttons', () => {
    const { text, blocks } = reportBlocks(healthy);
    expect(blocks[0]).toEqual({
      type: 'header',
      text: {
        type: 'plain_text',
        text: ':large_green_circle: unmanaged-pods · prod-eu · healthy',
        emoji: true,
      },
    });
    expect(blockText(blocks[1] as ChatBlock)).toBe('Nothing wrong found on prod-eu.');
    expect(blockText(blocks[2] as ChatBlock)).toContain('run `run-0001` · mode `auto` · took 1.3 s');
    expect(text).toBe(':large_green_circle: unmanaged-pods on prod-eu: healthy');
    expect(actionsBlocks(blocks)).toEqual([]);
    expect(allText(blocks)).not.toContain('Findings');
    expectWithinBlockKitLimits(blocks);
  });

  it('gives each step a section with its status', () => {
    const { blocks } = reportBlocks(degraded);
    const steps = blocks.filter((block) => block.type === 'section').map(blockText);
    expect(steps).toContain(':x: *Find unmanaged pods*: 13 unmanaged pods on 2 nodes');
    expect(steps).toContain(':warning: *Restart unmanaged pods*: 1 evicted, 1 blocked');
    expect(steps).toContain(':x: *Check replacements*: 1 replacement has no CEP yet');
  });

  it('lists each problem once, the worst first, with its state, ten at most, and counts the rest', () => {
    const { text, blocks } = reportBlocks(degraded);
    const findings = sectionWith(blocks, '*Found (13 found, 1 fixed, 12 open)*').split('\n');
    expect(findings.filter((line) => line.startsWith('• '))).toHaveLength(10);
    expect(findings.filter((line) => line.includes('_Fix:_'))).toHaveLength(3);
    expect(findings[1]).toBe(
      '• :red_circle: :red_circle: *UNMANAGED_POD* `shop/web-11` _open_: shop/web-11 runs without a CiliumEndpoint, so policy does not apply to it',
    );
    expect(findings[2]).toBe('    _Fix:_ kubectl -n kube-system rollout restart ds/cilium');
    expect(findings.at(-1)).toBe('_…and 3 more_');
    expect(text).toBe(':warning: unmanaged-pods on prod-eu: degraded, 13 found, 1 fixed, 12 open');
    expect(actionsBlocks(blocks)).toEqual([]);
    expectWithinBlockKitLimits(blocks);
  });

  it('shows what was done, and why a problem was not fixed beside the problem', () => {
    const { blocks } = reportBlocks(degraded);
    expect(sectionWith(blocks, '*Done (1)*')).toContain('• evict-pod `shop/web-1`');
    expect(sectionWith(blocks, '*Found')).toContain(
      '`shop/web-2` _blocked_ (PodDisruptionBudget shop/web allows 0)',
    );
  });

  it('shows the writes that may have happened apart from those done, with why', () => {
    const lost = report({
      verdict: 'degraded',
      steps: [
        step('restart', {
          done: [
            { action: 'evict-pod', target: 'shop/web-1', outcome: 'done' },
            {
              action: 'evict-pod',
              target: 'shop/web-2',
              outcome: 'unconfirmed',
              detail: 'may have happened, its answer was lost: unavailable: create pods/eviction (Timeout)',
            },
          ],
        }),
      ],
    });
    const { blocks } = reportBlocks(lost);
    expect(sectionWith(blocks, '*Done (1)*')).not.toContain('web-2');
    expect(sectionWith(blocks, '*Unconfirmed, may have happened (1)*')).toContain(
      'evict-pod `shop/web-2` (may have happened, its answer was lost: unavailable: create pods/eviction (Timeout))',
    );
    expect(allText(reportBlocks(healthy).blocks)).not.toContain('may have happened');
  });

  it('offers approve and reject buttons whose value round-trips to the plan', () => {
    const { text, blocks } = reportBlocks(needsApproval);
    expect(text).toBe(
      ':raised_hand: unmanaged-pods on prod-eu: needs approval, 2 found, 0 fixed, 2 open, 2 actions wait for approval',
    );
    expect(sectionWith(blocks, '*Waiting for approval (2)*')).toContain(
      '• evict-pod `shop/web-1`: no CiliumEndpoint',
    );
    // `planned` decisions are the plan itself, shown once.
    expect(allText(blocks)).not.toContain('*Done');

    const [buttons, ...others] = actionsBlocks(blocks);
    expect(others).toEqual([]);
    expect(buttons?.elements.map((button) => [button.action_id, button.style])).toEqual([
      ['approve', 'primary'],
      ['reject', 'danger'],
    ]);
    for (const button of buttons?.elements ?? []) {
      expect(parseApprovalValue(button.value)).toEqual({
        ok: true,
        value: { runId: 'run-0001', approved: ['evict-pod:shop/web-1', 'evict-pod:shop/web-2'] },
      });
    }
    expect(buttons?.elements[0]?.confirm?.title.text).toBe('Approve 2 actions?');
    expectWithinBlockKitLimits(blocks);
  });

  it('shows a dry run plan without buttons', () => {
    const dryRun = report({
      mode: 'dry-run',
      verdict: 'degraded',
      steps: [step('evict', { plan: [eviction(1)], findings: [unmanagedPod(1)] })],
    });
    const { blocks } = reportBlocks(dryRun);
    expect(sectionWith(blocks, '*Dry run: would do*')).toContain('evict-pod `shop/web-1`');
    expect(actionsBlocks(blocks)).toEqual([]);
  });

  it('approves a plan too long for one button value in parts, and says so', () => {
    const plan = Array.from({ length: 200 }, (_, i) => eviction(i));
    const long = { ...needsApproval, steps: [step('evict', { plan })] };
    const { blocks } = reportBlocks(long);
    const approve = actionsBlocks(blocks)[0]?.elements[0];
    const parsed = parseApprovalValue(approve?.value ?? '');
    if (!parsed.ok) throw new Error(parsed.reason);
    const covered = parsed.value.approved.length;
    expect(covered).toBeGreaterThan(10);
    expect(covered).toBeLessThan(200);
    expect(parsed.value.approved).toEqual(plan.slice(0, covered).map((a) => `evict-pod:${a.target}`));
    expect(allText(blocks)).toContain(`Approve covers the first ${covered} of 200 planned actions`);
    expect(sectionWith(blocks, `*Waiting for approval (${covered})*`)).toContain(
      `_…and ${covered - 10} more_`,
    );
    expectWithinBlockKitLimits(blocks);
  });

  it('stays within Block Kit limits for many steps and very long text', () => {
    const huge = 'x'.repeat(5000);
    const crowded = report({
      verdict: 'degraded',
      steps: Array.from({ length: 60 }, (_, i) =>
        step(`s${i}`, { title: huge, summary: huge, findings: [{ ...unmanagedPod(i), message: huge }] }),
      ),
    });
    const { blocks } = reportBlocks(crowded);
    expectWithinBlockKitLimits(blocks);
    expect(sectionWith(blocks, '*Steps (60)*')).toContain('_…and');
  });

  it('escapes Slack markup in free text', () => {
    const odd = report({
      verdict: 'degraded',
      steps: [
        step('scan', { summary: 'node <none> & co', findings: [{ ...unmanagedPod(1), target: 'ns/<a>' }] }),
      ],
    });
    const text = allText(reportBlocks(odd).blocks);
    expect(text).toContain('node &lt;none&gt; &amp; co');
    expect(text).toContain('`ns/&lt;a&gt;`');
    expect(text).not.toContain('<none>');
  });
});

describe('a plan waiting for approval shows the params it was made with, and who set each', () => {
  it('names each param, its value and who set it, beside the buttons', () => {
    const text = allText(
      reportBlocks({
        ...needsApproval,
        params: [
          { key: 'gracePeriodSeconds', value: '0', by: '<@U0APPROVER1>' },
          { key: 'namespaces', value: ['shop'], by: 'config' },
        ],
      }).blocks,
    );
    expect(text).toContain(
      'Params: `gracePeriodSeconds="0"` set by <@U0APPROVER1>, `namespaces=["shop"]` set by config.',
    );
  });

  it("says when the plan was made with the runbook's defaults", () => {
    expect(allText(reportBlocks(needsApproval).blocks)).toContain("Params: none (the runbook's defaults).");
  });
});
