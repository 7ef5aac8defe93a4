import { type RetryOptions, WebClient } from '@slack/web-api';
import { consoleRunLink } from '../chat/console-link.ts';
import { threadFor } from '../chat/threading.ts';
import type { ChatSink, ChatTarget, MessageRef } from '../chat/types.ts';
import type { Report } from '../engine/types.ts';
import { type RunSummary, summarize } from '../report/summary.ts';
import { fullReportText, needsFullText } from '../report/text.ts';
import { memoryThreadIndex } from '../store/memory/threads.ts';
import type { ThreadIndex, ThreadRef } from '../store/types.ts';
import { type ChatBlock, context, escapeMrkdwn } from './block-kit.ts';
import { type ReportMessage, reportBlocks } from './blocks.ts';
import { slackCallError } from './errors.ts';
import { SLACK_WORDS } from './words.ts';

/**
 * Retries after a 429 (the client first sleeps for the response's Retry-After) or a network
 * failure; bounded, so a worker's report never waits on Slack for long. Slack's own errors
 * (`ok: false`) are not retried: they do not go away by themselves.
 */
export const SLACK_RETRIES: RetryOptions = { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 5000 };

export interface SlackSinkOptions {
  /** The bot token (`xoxb-…`) with the chat:write scope. */
  token: string;
  /** Slack's Web API base URL; tests point it at a local fake. */
  slackApiUrl?: string;
  /** Where thread roots are remembered; in memory unless a persistent index is given. */
  threads?: ThreadIndex;
  retryConfig?: RetryOptions;
  /** Per request. */
  timeoutMs?: number;
  /** The web console's URL, when known: each report ends with its run's page there. */
  consoleUrl?: () => string | undefined;
}

/** Errors that mean the thread's root message is gone: post a new root instead. */
const ROOT_GONE = new Set(['message_not_found', 'cant_update_message']);

/**
 * Posts each report as a Block Kit message: one thread per problem (src/chat/threading.ts), its
 * head edited in place on later runs, a reply when the state changes or the problem is resolved.
 */
export function slackSink(options: SlackSinkOptions): ChatSink {
  const client = new WebClient(options.token, {
    slackApiUrl: options.slackApiUrl ?? 'https://slack.com/api/',
    retryConfig: options.retryConfig ?? SLACK_RETRIES,
    timeout: options.timeoutMs ?? 10_000,
  });
  const threads = options.threads ?? memoryThreadIndex();

  async function post(
    target: ChatTarget,
    message: { text: string; blocks?: ChatBlock[] },
    threadTs?: string,
  ): Promise<ThreadRef> {
    try {
      const posted = await client.chat.postMessage({
        channel: target.channel,
        ...message,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      });
      if (!posted.ts) throw new Error('the response has no ts');
      // Slack answers with the channel id; chat.update needs it, not the name.
      return { channel: posted.channel ?? target.channel, ts: posted.ts };
    } catch (error) {
      throw slackCallError('chat.postMessage', error);
    }
  }

  async function permalink(message: MessageRef): Promise<string | undefined> {
    try {
      const answer = await client.chat.getPermalink({ channel: message.channel, message_ts: message.ts });
      return answer.permalink;
    } catch (error) {
      throw slackCallError('chat.getPermalink', error);
    }
  }

  /** True when the root was edited; false when it is gone and a new one must be posted. */
  async function update(root: ThreadRef, message: ReportMessage): Promise<boolean> {
    try {
      await client.chat.update({ channel: root.channel, ts: root.ts, ...message });
      return true;
    } catch (error) {
      const failure = slackCallError('chat.update', error);
      if (ROOT_GONE.has(failure.code)) return false;
      throw failure;
    }
  }

  /**
   * What the message had to leave out (a long list, a large output) goes into the thread as a
   * text file: when the thread starts and when its state changes, not on every repeat.
   */
  async function attachFullText(report: Report, summary: RunSummary, root: ThreadRef): Promise<void> {
    if (!needsFullText(report, summary)) return;
    try {
      await client.filesUploadV2({
        channel_id: root.channel,
        thread_ts: root.ts,
        content: fullReportText(report, summary),
        filename: `${report.runbook}-${report.runId}.txt`,
        title: `${report.runbook} on ${report.cluster}: the full report`,
      });
    } catch (error) {
      // The report itself is posted; say in the thread what is missing rather than post it twice.
      const why = slackCallError('files.uploadV2', error).message;
      await post(
        { channel: root.channel, threadKey: '' },
        { text: `The full report could not be attached (${why}); \`responder history\` has it.` },
        root.ts,
      );
    }
  }

  return {
    async postReport(report, target) {
      const summary = summarize(report, SLACK_WORDS);
      const message = reportBlocks(report, summary, consoleRunLink(options.consoleUrl?.(), report.runId));
      const active = await threads.get(target.threadKey);
      const decision = threadFor(summary, active);
      if (active && decision.kind === 'update' && (await update(active, message))) {
        if (decision.reply) {
          await post({ ...target, channel: active.channel }, { text: decision.reply }, active.ts);
          await attachFullText(report, summary, active);
        }
        await threads.set(target.threadKey, { channel: active.channel, ts: active.ts, ...decision.next });
        return { threadTs: active.ts, channel: active.channel };
      }
      const posted = await post(target, message);
      await threads.set(target.threadKey, { ...posted, ...decision.next });
      await attachFullText(report, summary, posted);
      return { threadTs: posted.ts, channel: posted.channel };
    },

    async settleApproval(message, report, outcome) {
      const link = report && consoleRunLink(options.consoleUrl?.(), report.runId);
      const rest = report
        ? reportBlocks(report, undefined, link).blocks.filter((block) => block.type !== 'actions')
        : [];
      try {
        await client.chat.update({
          channel: message.channel,
          ts: message.ts,
          text: outcome,
          blocks: [...rest, context(escapeMrkdwn(outcome).replace(/&lt;(@[UW]\w+)&gt;/g, '<$1>'))],
        });
      } catch (error) {
        throw slackCallError('chat.update', error);
      }
    },

    async noteOnHead(target, report, note) {
      const root = await threads.get(target.threadKey);
      if (!root) {
        const posted = await post(target, { text: note });
        await threads.set(target.threadKey, { ...posted, problem: '' });
        return;
      }
      const blocks = [...(report ? reportBlocks(report).blocks : []), context(escapeMrkdwn(note))];
      if (await update(root, { text: note, blocks })) return;
      // The head is gone: the note starts a new thread.
      const posted = await post({ ...target, channel: root.channel }, { text: note });
      await threads.set(target.threadKey, { ...posted, problem: '' });
    },

    async threadLink(threadKey) {
      const root = await threads.get(threadKey);
      return root ? permalink(root) : undefined;
    },

    permalink,

    async tellUser(channel, user, text) {
      try {
        await client.chat.postEphemeral({ channel, user, text });
      } catch (error) {
        throw slackCallError('chat.postEphemeral', error);
      }
    },

    async postText(target, text) {
      const root = await threads.get(target.threadKey);
      if (root) {
        await post({ ...target, channel: root.channel }, { text }, root.ts);
        return { threadTs: root.ts };
      }
      const posted = await post(target, { text });
      await threads.set(target.threadKey, { ...posted, problem: '' });
      return { threadTs: posted.ts };
    },
  };
}
