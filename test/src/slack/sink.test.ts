import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportBlocks } from '../../../src/slack/blocks.ts';
import { SlackCallError } from '../../../src/slack/errors.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { degraded, healthy } from '../chat/reports.ts';
import { type SlackCall, startFakeSlack } from './fake-slack.ts';

let slack: Awaited<ReturnType<typeof startFakeSlack>>;

beforeEach(async () => {
  slack = await startFakeSlack();
});

afterEach(async () => {
  await slack.close();
});

const target = { channel: '#cilium-prod', threadKey: 'prod-eu/unmanaged-pods' };

function sink() {
  return slackSink({ token: 'xoxb-test-token', slackApiUrl: slack.url });
}

/** The chat calls, without the full-report attachments (files.*), which have their own test. */
function chatCalls(): SlackCall[] {
  return slack.calls.filter((call) => !call.method.startsWith('files.'));
}

/** The chat calls; the full-report attachments (files.*) have their own test. */
function methods(calls: readonly SlackCall[]): string[] {
  return calls.map((call) => call.method).filter((method) => !method.startsWith('files.'));
}

describe('slackSink', () => {
  it('posts a report as Block Kit with the bot token', async () => {
    const result = await sink().postReport(degraded, target);

    // The channel's id, as Slack answers it: the audit record keeps where the report went.
    expect(result).toEqual({ threadTs: '1714564800.000001', channel: 'C0CILIUM01' });
    expect(methods(slack.calls)).toEqual(['chat.postMessage']);
    const [call] = chatCalls();
    expect(call?.authorization).toBe('Bearer xoxb-test-token');
    expect(call?.params.channel).toBe('#cilium-prod');
    const expected = reportBlocks(degraded);
    expect(call?.params.text).toBe(expected.text);
    expect(JSON.parse(call?.params.blocks ?? 'null')).toEqual(expected.blocks);
  });

  it('keeps one thread for an unchanged problem run three times: the head edited in place, no replies', async () => {
    const chat = sink();
    const first = await chat.postReport(degraded, target);
    const second = await chat.postReport(degraded, target);
    const third = await chat.postReport(degraded, target);

    expect([second, third]).toEqual([first, first]);
    expect(methods(slack.calls)).toEqual(['chat.postMessage', 'chat.update', 'chat.update']);
    const update = chatCalls()[2];
    expect(update?.params.channel).toBe('C0CILIUM01');
    expect(update?.params.ts).toBe(first.threadTs);
  });

  it('replies in the thread when the state changes, and says resolved when the problem is gone', async () => {
    const chat = sink();
    const root = await chat.postReport(degraded, target);
    const fewer = {
      ...degraded,
      steps: degraded.steps.map((step) => ({ ...step, findings: step.findings.slice(0, 2) })),
    };
    await chat.postReport(fewer, target);
    await chat.postReport(healthy, target);

    expect(methods(slack.calls)).toEqual([
      'chat.postMessage',
      'chat.update',
      'chat.postMessage',
      'chat.update',
      'chat.postMessage',
    ]);
    const [changed, resolved] = chatCalls().filter((call) => call.params.thread_ts === root.threadTs);
    expect(changed?.params.text).toMatch(/^Now degraded: \d+ found, \d+ fixed, \d+ open\. /);
    expect(resolved?.params.text).toBe('Resolved: Nothing wrong found on prod-eu.');
    expect(chatCalls()[3]?.params.text).toBe(reportBlocks(healthy).text);
  });

  it('opens a new thread for a new problem after the old one was resolved', async () => {
    const chat = sink();
    const first = await chat.postReport(degraded, target);
    await chat.postReport(healthy, target);
    const again = await chat.postReport(degraded, target);
    expect(again.threadTs).not.toBe(first.threadTs);
  });

  it("links to a problem's thread by its head's permalink, and to nothing it never posted", async () => {
    const chat = sink();
    const root = await chat.postReport(degraded, target);
    expect(await chat.threadLink?.(target.threadKey)).toBe(
      `https://example.slack.com/archives/C0CILIUM01/p${root.threadTs?.replace('.', '')}`,
    );
    expect(await chat.threadLink?.('prod-eu/never-posted')).toBeUndefined();
  });

  it('attaches what the message leaves out as a text file in the thread, once per state', async () => {
    const chat = sink();
    const root = await chat.postReport(degraded, target);
    await chat.postReport(degraded, target);

    expect(slack.calls.map((call) => call.method)).toEqual([
      'chat.postMessage',
      'files.getUploadURLExternal',
      'files.completeUploadExternal',
      'chat.update',
    ]);
    const complete = slack.calls[2];
    expect(complete?.params).toMatchObject({ channel_id: 'C0CILIUM01', thread_ts: root.threadTs });
    const [upload] = slack.uploads;
    // All 13 problems, where the message shows 10.
    expect(upload?.content.match(/^ {2}\[(open|fixed|blocked|planned)\]/gm)).toHaveLength(13);
    expect(upload?.content).toContain('shop/web-13');
  });

  it('starts a new thread for another threadKey', async () => {
    const chat = sink();
    const first = await chat.postReport(degraded, target);
    const other = await chat.postReport(degraded, { ...target, threadKey: 'prod-eu/host-identity' });

    expect(other.threadTs).not.toBe(first.threadTs);
    expect(methods(slack.calls)).toEqual(['chat.postMessage', 'chat.postMessage']);
  });

  it('posts text as a reply in a known thread, and as a new root otherwise', async () => {
    const chat = sink();
    const root = await chat.postReport(degraded, target);
    await chat.postText(target, 'Alert resolved.');
    const alone = await chat.postText({ ...target, threadKey: 'prod-eu/tunnel' }, 'Approved by <@U123>.');

    const [, reply, newRoot] = chatCalls();
    expect(reply?.params).toMatchObject({
      channel: 'C0CILIUM01',
      thread_ts: root.threadTs,
      text: 'Alert resolved.',
    });
    expect(newRoot?.params.thread_ts).toBeUndefined();
    expect(newRoot?.params.channel).toBe('#cilium-prod');
    expect(alone.threadTs).toBe('1714564800.000003');
  });

  it('waits out a 429 for its Retry-After, then retries', async () => {
    slack.script('chat.postMessage', {
      status: 429,
      headers: { 'Retry-After': '1' },
      body: { ok: false, error: 'ratelimited' },
    });

    const result = await sink().postReport(degraded, target);

    expect(result.threadTs).toBe('1714564800.000001');
    expect(methods(slack.calls)).toEqual(['chat.postMessage', 'chat.postMessage']);
    const [limited, retried] = chatCalls();
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('gives up after its retries with a clear error', async () => {
    for (let i = 0; i < 2; i++) {
      slack.script('chat.postMessage', { status: 429, headers: { 'Retry-After': '1' }, body: { ok: false } });
    }
    const chat = slackSink({
      token: 'xoxb-test-token',
      slackApiUrl: slack.url,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    });

    await expect(chat.postReport(degraded, target)).rejects.toThrow(
      /^Slack chat\.postMessage failed: slack_webapi_request_error \(A rate limit was exceeded .*retry-after: 1\)\)$/,
    );
    expect(slack.calls).toHaveLength(2);
  });

  it('surfaces channel_not_found with what to do, without retrying or remembering a thread', async () => {
    slack.script('chat.postMessage', { status: 200, body: { ok: false, error: 'channel_not_found' } });
    const chat = sink();

    const failure = await chat.postReport(degraded, target).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(SlackCallError);
    expect(failure).toMatchObject({ method: 'chat.postMessage', code: 'channel_not_found' });
    expect((failure as Error).message).toBe(
      'Slack chat.postMessage failed: channel_not_found (check the channel in the config (name or id) and invite the bot to it)',
    );
    expect(slack.calls).toHaveLength(1);

    await chat.postReport(degraded, target);
    expect(methods(slack.calls)).toEqual(['chat.postMessage', 'chat.postMessage']);
  });

  it('posts a new root when the old one was deleted', async () => {
    const chat = sink();
    await chat.postReport(degraded, target);
    slack.script('chat.update', { status: 200, body: { ok: false, error: 'message_not_found' } });

    const second = await chat.postReport(healthy, target);
    await chat.postReport(healthy, target);

    expect(methods(slack.calls)).toEqual([
      'chat.postMessage',
      'chat.update',
      'chat.postMessage',
      'chat.update',
    ]);
    expect(second.threadTs).toBe('1714564800.000002');
    expect(chatCalls()[3]?.params.ts).toBe('1714564800.000002');
  });

  it('fails a chat.update for other reasons instead of posting twice', async () => {
    const chat = sink();
    await chat.postReport(degraded, target);
    slack.script('chat.update', { status: 200, body: { ok: false, error: 'not_in_channel' } });

    await expect(chat.postReport(healthy, target)).rejects.toThrow(
      'Slack chat.update failed: not_in_channel (invite the bot to the channel)',
    );
    expect(methods(slack.calls)).toEqual(['chat.postMessage', 'chat.update']);
  });
});
