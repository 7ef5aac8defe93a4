import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { loadConfig } from '../../src/config/load.ts';
import { routeTrigger } from '../../src/routing/route.ts';

interface Rules {
  spec: { groups: { rules: { alert: string; labels: Record<string, string> }[] }[] };
}

const rules = parse(
  readFileSync(new URL('../../runbooks/alert-rules.example.yaml', import.meta.url), 'utf8'),
) as Rules;
const alerts = rules.spec.groups.flatMap((group) => group.rules);

describe('example alert rules', () => {
  it('fire only alert names a runbook answers, one rule per incident', () => {
    const answeredBy = new Map(
      RUNBOOKS.flatMap((runbook) => runbook.answers.map((name) => [name, runbook.id] as const)),
    );
    expect(alerts.map((rule) => answeredBy.get(rule.alert)).sort()).toEqual(
      RUNBOOKS.map((runbook) => runbook.id).sort(),
    );
  });

  it('are routed by the example config to the runbook that answers them', async () => {
    const config = await loadConfig('responder.config.example.yaml', { runbooks: RUNBOOKS.map((r) => r.id) });
    for (const rule of alerts) {
      const { jobs } = routeTrigger(
        {
          source: 'alertmanager',
          receivedAt: '2026-11-21T10:00:00Z',
          deliveryKey: rule.alert,
          status: 'firing',
          alerts: [
            {
              name: rule.alert,
              status: 'firing',
              fingerprint: rule.alert,
              labels: { alertname: rule.alert, cluster: 'sim' },
              annotations: {},
            },
          ],
          actor: { kind: 'system', id: 'alertmanager' },
        },
        { config, runbooks: RUNBOOKS.map((r) => r.id), newId: () => 'job' },
      );
      const expected = RUNBOOKS.find((runbook) => runbook.answers.includes(rule.alert))?.id;
      expect(
        jobs.map((job) => job.runbook),
        rule.alert,
      ).toEqual([expected]);
    }
  });
});
