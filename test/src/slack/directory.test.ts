import { afterEach, describe, expect, it } from 'vitest';
import { slackDirectory } from '../../../src/slack/directory.ts';
import { startFakeSlack } from './fake-slack.ts';

let slack: Awaited<ReturnType<typeof startFakeSlack>> | undefined;
afterEach(async () => {
  await slack?.close();
  slack = undefined;
});

describe('slackDirectory', () => {
  it('finds the approver groups a person is in, asking Slack once per group while the answer is fresh', async () => {
    slack = await startFakeSlack();
    slack.script('usergroups.users.list', { status: 200, body: { ok: true, users: ['U1', 'U2'] } });
    slack.script('usergroups.users.list', { status: 200, body: { ok: true, users: ['U3'] } });
    let clock = 0;
    const directory = slackDirectory({ token: 'xoxb-test', slackApiUrl: slack.url, now: () => clock });
    expect(await directory.groupsOf('U2', ['S0ONCALL', 'S0OTHER'])).toEqual(['S0ONCALL']);
    expect(await directory.groupsOf('U3', ['S0ONCALL', 'S0OTHER'])).toEqual(['S0OTHER']);
    expect(slack.calls.map((c) => c.params.usergroup)).toEqual(['S0ONCALL', 'S0OTHER']);
    clock = 301_000;
    slack.script('usergroups.users.list', { status: 200, body: { ok: true, users: [] } });
    expect(await directory.groupsOf('U2', ['S0ONCALL'])).toEqual([]);
  });

  it('says which call failed and why', async () => {
    slack = await startFakeSlack();
    slack.script('usergroups.users.list', { status: 200, body: { ok: false, error: 'missing_scope' } });
    const directory = slackDirectory({ token: 'xoxb-test', slackApiUrl: slack.url });
    await expect(directory.groupsOf('U1', ['S0ONCALL'])).rejects.toThrow(
      /usergroups.users.list failed: missing_scope/,
    );
  });
});
