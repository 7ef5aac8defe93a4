import { afterEach, beforeEach } from 'vitest';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';

export interface ScenarioAndSlack {
  scenario: SimUnderTest;
  slack: Awaited<ReturnType<typeof startFakeSlack>>;
}

/**
 * A fresh simulated cluster and a local Slack stand-in for each test of the calling describe,
 * both closed after it. Read the fields inside tests: they are set in beforeEach.
 */
export function scenarioAndSlack(scenarios: string[]): ScenarioAndSlack {
  const env = {} as ScenarioAndSlack;
  beforeEach(async () => {
    env.scenario = await startScenario(scenarios);
    env.slack = await startFakeSlack();
  });
  afterEach(async () => {
    await env.scenario.sim.close();
    await env.slack.close();
  });
  return env;
}
