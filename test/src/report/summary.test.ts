import { describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../../src/engine/types.ts';
import { shorten, summarize } from '../../../src/report/summary.ts';
import { fullReportText } from '../../../src/report/text.ts';
import { report, step, unmanagedPod } from '../chat/reports.ts';

const rootCause: Finding = {
  code: 'OPERATOR_SELECTOR_NARROW',
  target: 'cilium-config',
  severity: 'warning',
  message: 'pod-restart-selector "k8s-app=kube-dns" misses 3 of 3 unmanaged pods',
  fix: 'helm upgrade with operator.unmanagedPodWatcher.restart=true and an empty selector',
};

/** Found 3 pods and the selector; evicted 2 (verified), 1 blocked by its budget. */
const acted: Report = report({
  verdict: 'degraded',
  steps: [
    step('find', { status: 'fail', findings: [unmanagedPod(1), unmanagedPod(2), unmanagedPod(3)] }),
    step('watcher', { status: 'fail', findings: [rootCause] }),
    step('restart', {
      done: [
        { action: 'evict-pod', target: 'shop/web-1', outcome: 'done' },
        { action: 'evict-pod', target: 'shop/web-2', outcome: 'done' },
        { action: 'evict-pod', target: 'shop/web-3', outcome: 'blocked', detail: 'disruption budget web' },
      ],
    }),
    step('verify', {
      status: 'fail',
      findings: [{ ...unmanagedPod(3), message: 'still no CiliumEndpoint' }],
    }),
  ],
});

/** Evicted 1 (verified); 2 evictions answered 504: one seen gone after, one seen still there. */
const lostAnswers: Report = report({
  verdict: 'degraded',
  steps: [
    step('find', { status: 'fail', findings: [unmanagedPod(1), unmanagedPod(2), unmanagedPod(3)] }),
    step('restart', {
      status: 'warn',
      done: [
        { action: 'evict-pod', target: 'shop/web-1', outcome: 'done' },
        {
          action: 'evict-pod',
          target: 'shop/web-2',
          outcome: 'unconfirmed',
          detail: 'may have happened: 504',
        },
        {
          action: 'evict-pod',
          target: 'shop/web-3',
          outcome: 'unconfirmed',
          detail: 'may have happened: 504',
        },
      ],
    }),
    step('verify', {
      status: 'fail',
      findings: [{ ...unmanagedPod(3), message: 'still here: it did not happen' }],
    }),
  ],
});

describe('summarize, with writes that may have happened', () => {
  it('lists them apart from the writes that happened, and says so in the one line', () => {
    const summary = summarize(lostAnswers);
    expect(summary.done.map((a) => a.target)).toEqual(['shop/web-1']);
    expect(summary.unconfirmed.map((a) => a.target)).toEqual(['shop/web-2', 'shop/web-3']);
    expect(summary.diagnosis).toMatch(
      /^2 of 3 fixed and verified \(1 pod evicted\); 2 pod evictions may have happened \(the answer was lost\), 1 open: /,
    );
  });

  it('the full text lists them under their own heading, with why', () => {
    const text = fullReportText(lostAnswers);
    expect(text).toContain('Done (1):\n  evict-pod shop/web-1\n');
    expect(text).toContain(
      'Unconfirmed, may have happened (2):\n  evict-pod shop/web-2 (may have happened: 504)\n  evict-pod shop/web-3 (may have happened: 504)\n',
    );
    expect(fullReportText(acted)).not.toContain('Unconfirmed');
  });

  it('a problem whose write is unconfirmed is fixed only when the last step no longer finds it', () => {
    const states = summarize(lostAnswers).found.map((p) => [p.target, p.state, p.because]);
    expect(states).toEqual([
      ['shop/web-1', 'fixed', undefined],
      ['shop/web-2', 'fixed', undefined],
      ['shop/web-3', 'open', 'write unconfirmed, still found'],
    ]);
  });

  it('one unconfirmed agent restart and nothing left open', () => {
    const restarted = report({
      verdict: 'remediated',
      steps: [
        step('check', { status: 'fail', findings: [{ ...unmanagedPod(1), code: 'RULE', target: 'node-a' }] }),
        step('restart', {
          done: [{ action: 'restart-agent', target: 'node-a', outcome: 'unconfirmed', detail: 'x' }],
        }),
        step('verify'),
      ],
    });
    expect(summarize(restarted).diagnosis).toBe(
      '1 of 1 fixed and verified; 1 agent restart may have happened (the answer was lost).',
    );
  });
});

describe('summarize', () => {
  it('lists each problem once with its state: fixed when acted on and no longer found', () => {
    const summary = summarize(acted);
    expect(summary.found.map((p) => [p.code, p.target, p.state])).toEqual([
      ['UNMANAGED_POD', 'shop/web-1', 'fixed'],
      ['UNMANAGED_POD', 'shop/web-2', 'fixed'],
      ['OPERATOR_SELECTOR_NARROW', 'cilium-config', 'open'],
      ['UNMANAGED_POD', 'shop/web-3', 'blocked'],
    ]);
    expect(summary.counts).toEqual({ found: 4, fixed: 2, open: 2 });
    expect(summary.found[3]).toMatchObject({
      message: 'still no CiliumEndpoint',
      because: 'disruption budget web',
    });
  });

  it('keeps the root cause open though the verify step does not list it', () => {
    expect(summarize(acted).open.map((p) => p.code)).toContain('OPERATOR_SELECTOR_NARROW');
  });

  it('says what was done and the first thing left in one line', () => {
    expect(summarize(acted).diagnosis).toBe(
      '2 of 4 fixed and verified (2 pods evicted), 2 open: 1 blocked (disruption budget web); 1 needs a person, the cause: pod-restart-selector "k8s-app=kube-dns" misses 3 of 3 unmanaged pods; fix: helm upgrade with operator.unmanagedPodWatcher.restart=true and an empty selector.',
    );
  });

  it('in a dry run, a planned write leaves the problem planned, never fixed', () => {
    const dry = report({
      mode: 'dry-run',
      verdict: 'degraded',
      steps: [
        step('find', { status: 'fail', findings: [unmanagedPod(1)] }),
        step('restart', {
          done: [{ action: 'evict-pod', target: 'shop/web-1', outcome: 'planned', detail: 'dry-run' }],
        }),
      ],
    });
    const summary = summarize(dry);
    expect(summary.found.map((p) => p.state)).toEqual(['planned']);
    expect(summary.counts).toEqual({ found: 1, fixed: 0, open: 1 });
    expect(summary.diagnosis).toBe('1 problem found, 1 open: 1 would be fixed with mode auto.');
    // The model says the action; each reader says how to ask for it.
    expect(summarize(dry, { apply: '--mode auto' }).diagnosis).toBe(
      '1 problem found, 1 open: 1 would be fixed with --mode auto.',
    );
    const withFix = {
      ...dry,
      steps: [
        step('find', { findings: [{ ...unmanagedPod(1), fix: 'kubectl -n shop delete pod web-1' }] }),
        ...dry.steps.slice(1),
      ],
    };
    expect(summarize(withFix, { apply: '--apply' }).found[0]?.fix).toMatch(
      /^Run with --apply to let the responder do it, or by hand: /,
    );
  });

  it('counts a symptom fixed when a step after the writes saw it gone, and only then', () => {
    const probes: Finding = {
      code: 'POLICY_DENIED_FROM_HOST',
      target: 'billing/invoice-api-1',
      severity: 'critical',
      message: 'probes dropped as world by NetworkPolicy allow-from-gateway',
    };
    const restarted = (mode: Report['mode']) =>
      report({
        mode,
        verdict: 'remediated',
        steps: [
          step('policy-drops', { status: 'fail', findings: [probes] }),
          step('restart-agents', {
            done: [{ action: 'restart-agent', target: 'ip-10-0-1-10', outcome: 'done' }],
          }),
          step('verify-rule', {
            cleared: [{ code: probes.code, target: probes.target, how: 'Ready again: its probes pass' }],
          }),
        ],
      });
    expect(summarize(restarted('auto')).found).toMatchObject([
      { state: 'fixed', because: 'Ready again: its probes pass' },
    ]);
    expect(summarize(restarted('auto')).diagnosis).toBe('1 of 1 fixed and verified (1 agent restarted).');
    expect(summarize(restarted('dry-run')).found.map((p) => p.state)).toEqual(['open']);
  });

  it('keeps the line whole: long texts end between words, and a fix that does not fit is left out', () => {
    const long: Finding = {
      ...rootCause,
      message: `pod-restart-selector misses 9 of 9 unmanaged pods (${Array.from({ length: 12 }, (_, i) => `team-${i}/pod-restart-selector-${i}`).join(', ')})`,
      fix: `helm upgrade cilium cilium/cilium --reuse-values --set-string extraConfig.pod-restart-selector='k8s-app!=aws-node' ${'--set x=y '.repeat(12)}`,
    };
    const summary = summarize(
      report({ verdict: 'degraded', steps: [step('watcher', { findings: [long] })] }),
    );
    expect(summary.diagnosis).toBe(
      '1 problem found, 1 open: 1 needs a person: pod-restart-selector misses 9 of 9 unmanaged pods…',
    );
    expect(shorten('one two three four', 12)).toBe('one two…');
  });

  it('says nothing was found on a healthy run, with the same verdict word everywhere', () => {
    const summary = summarize(report());
    expect(summary).toMatchObject({ verdictWord: 'healthy', counts: { found: 0, fixed: 0, open: 0 } });
    expect(summary.diagnosis).toBe('Nothing wrong found on prod-eu.');
  });
});
