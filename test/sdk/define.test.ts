import { describe, expect, it } from 'vitest';
import { defineRunbook, defineStep, finding, outcome, z } from '../../sdk/index.ts';

const step = defineStep({ id: 'look', title: 'look', run: async () => outcome('pass', 'fine') });

describe('defineRunbook', () => {
  it('fills in the defaults a runbook needs', () => {
    const runbook = defineRunbook({
      id: 'team-check',
      title: 'Team check',
      summary: 'Looks.',
      steps: [step],
    });
    expect(runbook.doc).toBe('runbooks/team-check/README.md');
    expect(runbook.answers).toEqual([]);
    expect(runbook.newState()).toEqual({});
    expect(runbook.params.parse({})).toEqual({});
    expect(runbook.steps[0]?.writes).toBe(false);
  });

  it('types ctx.params from the schema and validates them', async () => {
    const runbook = defineRunbook({
      id: 'typed',
      title: 'Typed',
      summary: 'Typed params.',
      params: z.object({ limit: z.number().int().default(3) }),
      steps: [defineStep({ id: 'a', title: 'a', run: async () => outcome('pass', 'ok') })],
    });
    expect(runbook.params.parse({})).toEqual({ limit: 3 });
    expect(runbook.params.safeParse({ limit: 'x' }).success).toBe(false);
  });

  it.each([
    [{ id: 'Bad_Id' }, 'runbook Bad_Id: id "Bad_Id" must be lowercase letters, digits and dashes'],
    [{ steps: [] }, 'runbook ok: steps is empty'],
    [{ steps: [step, step] }, 'runbook ok: step id "look" is used twice'],
    [
      { permissions: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] },
      'runbook ok: permissions[0]: verb "delete" is not a read (get, list, watch); writes go through ctx.actuator',
    ],
    [
      { permissions: [{ apiGroups: [''], resources: ['pods/exec'], verbs: ['get'] }] },
      'permissions[0]: subresources',
    ],
  ])('refuses %j, saying what is wrong', (change, message) => {
    expect(() => defineRunbook({ id: 'ok', title: 't', summary: 's', steps: [step], ...change })).toThrow(
      message,
    );
  });
});

describe('finding', () => {
  it('keeps code and target stable and defaults the severity to warning', () => {
    expect(
      finding({ code: 'KUBE_PROXY_LEFT', target: 'kube-system/kube-proxy', message: 'm', fix: 'f' }),
    ).toEqual({
      code: 'KUBE_PROXY_LEFT',
      target: 'kube-system/kube-proxy',
      severity: 'warning',
      message: 'm',
      fix: 'f',
    });
  });

  it('refuses a code that is not UPPER_SNAKE_CASE, and an empty target', () => {
    expect(() => finding({ code: 'kube proxy', target: 't', message: 'm' })).toThrow('UPPER_SNAKE_CASE');
    expect(() => finding({ code: 'A_B', target: '', message: 'm' })).toThrow('target is empty');
  });
});
