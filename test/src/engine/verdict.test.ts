import { describe, expect, it } from 'vitest';
import type {
  DoneAction,
  Finding,
  Mode,
  Severity,
  StepReport,
  StepStatus,
  Verdict,
} from '../../../src/engine/types.ts';
import { exitCodeOf, verdictOf } from '../../../src/engine/verdict.ts';

function finding(severity: Severity, target = 'shop/web-1'): Finding {
  return { code: 'UNMANAGED_POD', target, severity, message: `${target} has no CiliumEndpoint` };
}

function done(outcome: DoneAction['outcome'], target = 'shop/web-1'): DoneAction {
  return { action: 'evict-pod', target, outcome };
}

function step(
  id: string,
  status: StepStatus,
  parts: { findings?: Finding[]; done?: DoneAction[] } = {},
): StepReport {
  return {
    id,
    title: id,
    status,
    summary: id,
    findings: parts.findings ?? [],
    evidence: [],
    plan: [],
    done: parts.done ?? [],
    durationMs: 1,
  };
}

const MODES: Mode[] = ['dry-run', 'auto', 'approve'];

describe('verdictOf', () => {
  it('is failed when any step errored, whatever else happened', () => {
    for (const mode of MODES) {
      const steps = [
        step('check', 'fail', { findings: [finding('critical')] }),
        step('act', 'pass', { done: [done('done')] }),
        step('verify', 'error'),
      ];
      expect(verdictOf(mode, steps, false)).toBe('failed');
      // Even a run that stopped for approval failed if a step errored first.
      expect(verdictOf(mode, [step('check', 'error'), step('act', 'skip')], true)).toBe('failed');
    }
  });

  it('is needs-approval when the run stopped for approval', () => {
    const steps = [step('check', 'fail', { findings: [finding('warning')] }), step('act', 'pass')];
    expect(verdictOf('approve', steps, true)).toBe('needs-approval');
    expect(verdictOf('approve', steps, false)).toBe('degraded');
  });

  it('is healthy with no findings, or only info findings', () => {
    for (const mode of MODES) {
      expect(verdictOf(mode, [step('check', 'pass'), step('verify', 'pass')], false)).toBe('healthy');
      expect(verdictOf(mode, [step('check', 'pass', { findings: [finding('info')] })], false)).toBe(
        'healthy',
      );
    }
    expect(verdictOf('auto', [], false)).toBe('healthy');
  });

  it('is degraded when any step has a warning or critical finding and nothing was done', () => {
    for (const severity of ['warning', 'critical'] as const) {
      for (const mode of MODES) {
        const steps = [
          step('check', 'fail', { findings: [finding('info', 'a/b'), finding(severity)] }),
          step('verify', 'pass'),
        ];
        expect(verdictOf(mode, steps, false)).toBe('degraded');
      }
    }
  });

  it('is degraded when a check fails without findings (what it saw is only in its summary)', () => {
    for (const mode of MODES) {
      const steps = [step('check', 'fail'), step('verify', 'pass')];
      expect(verdictOf(mode, steps, false)).toBe('degraded');
      expect(exitCodeOf(verdictOf(mode, steps, false))).toBe(1);
    }
    // After acting, a verification that fails without findings still means problems remain.
    const acted = [step('act', 'pass', { done: [done('done')] }), step('verify', 'fail')];
    expect(verdictOf('auto', acted, false)).toBe('degraded');
  });

  it('is degraded by a warning or critical finding whatever the status of its step', () => {
    for (const status of ['pass', 'warn', 'skip'] as const) {
      expect(verdictOf('dry-run', [step('check', status, { findings: [finding('warning')] })], false)).toBe(
        'degraded',
      );
      const acted = [
        step('act', 'pass', { done: [done('done')] }),
        step('verify', status, { findings: [finding('critical')] }),
      ];
      expect(verdictOf('auto', acted, false)).toBe('degraded');
    }
  });

  it('does not count planned, blocked, skipped or failed actions as acting', () => {
    const steps = [
      step('check', 'fail', { findings: [finding('warning')] }),
      step('act', 'warn', {
        done: [done('planned', 'a/1'), done('blocked', 'a/2'), done('skipped', 'a/3'), done('failed', 'a/4')],
      }),
      step('verify', 'pass'),
    ];
    expect(verdictOf('auto', steps, false)).toBe('degraded');
  });

  it('after acting, the last step decides: remediated when it has no problems', () => {
    const steps = [
      step('check', 'fail', { findings: [finding('critical')] }),
      step('act', 'pass', { done: [done('done')] }),
      step('verify', 'pass', { findings: [finding('info')] }),
    ];
    expect(verdictOf('auto', steps, false)).toBe('remediated');
    // A resumed approve run acts too.
    expect(verdictOf('approve', steps, false)).toBe('remediated');
  });

  it('counts a write that may have happened (unconfirmed) as acting: a later clean check makes it remediated', () => {
    const steps = [
      step('check', 'fail', { findings: [finding('critical')] }),
      step('act', 'warn', { done: [done('unconfirmed')] }),
      step('verify', 'pass'),
    ];
    expect(verdictOf('auto', steps, false)).toBe('remediated');
  });

  it('never calls an unconfirmed write remediated unless a later step ran to check it', () => {
    const act = step('act', 'warn', { done: [done('unconfirmed')] });
    const check = step('check', 'fail', { findings: [finding('critical')] });
    // The write step is the last: nothing looked at the cluster after it.
    expect(verdictOf('auto', [check, act], false)).toBe('degraded');
    expect(verdictOf('auto', [check, step('act', 'pass', { done: [done('unconfirmed')] })], false)).toBe(
      'degraded',
    );
    // The check after it was skipped.
    expect(verdictOf('auto', [check, act, step('verify', 'skip')], false)).toBe('degraded');
    // A confirmed write beside it changes nothing.
    const both = step('act', 'pass', { done: [done('done', 'a/1'), done('unconfirmed', 'a/2')] });
    expect(verdictOf('auto', [check, both, step('verify', 'skip')], false)).toBe('degraded');
    // A skipped last step after confirmed writes only still lets the last step decide.
    expect(
      verdictOf(
        'auto',
        [check, step('act', 'pass', { done: [done('done')] }), step('verify', 'skip')],
        false,
      ),
    ).toBe('remediated');
  });

  it('after acting, the last step decides: degraded when problems remain there', () => {
    for (const severity of ['warning', 'critical'] as const) {
      const steps = [
        step('check', 'pass'),
        step('act', 'pass', { done: [done('done')] }),
        step('verify', 'fail', { findings: [finding(severity)] }),
      ];
      expect(verdictOf('auto', steps, false)).toBe('degraded');
    }
  });

  it('dry-run is never remediated, even if a step claims it did something', () => {
    const steps = [
      step('check', 'fail', { findings: [finding('critical')] }),
      step('act', 'pass', { done: [done('done')] }),
      step('verify', 'pass'),
    ];
    expect(verdictOf('dry-run', steps, false)).toBe('degraded');
    const clean = [step('act', 'pass', { done: [done('done')] }), step('verify', 'pass')];
    expect(verdictOf('dry-run', clean, false)).toBe('healthy');
  });
});

describe('exitCodeOf', () => {
  it('is 0 for healthy or remediated, 1 when problems remain, 2 when the run failed', () => {
    const codes: Record<Verdict, 0 | 1 | 2> = {
      healthy: 0,
      remediated: 0,
      'needs-approval': 1,
      degraded: 1,
      failed: 2,
    };
    for (const [verdict, code] of Object.entries(codes)) {
      expect(exitCodeOf(verdict as Verdict), verdict).toBe(code);
    }
  });
});
