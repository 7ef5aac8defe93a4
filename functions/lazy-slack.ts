import type { ApproverDirectory, ChatSink } from '../src/chat/types.ts';
import type { SlackDirectoryOptions } from '../src/slack/directory.ts';
import type { SlackSinkOptions } from '../src/slack/sink.ts';
import { onFirstCall } from './on-first-call.ts';

/**
 * Slack's sink with its Web API client loaded on the first post: the http function answers most
 * requests (webhooks, health) without posting, so its cold start does not load the client.
 */
export function lazySlackSink(options: SlackSinkOptions): ChatSink {
  const sink = onFirstCall(async () => (await import('../src/slack/sink.ts')).slackSink(options));
  return {
    postReport: async (...args) => (await sink()).postReport(...args),
    postText: async (...args) => (await sink()).postText(...args),
    settleApproval: async (...args) => (await sink()).settleApproval?.(...args),
    noteOnHead: async (...args) => (await sink()).noteOnHead?.(...args),
    threadLink: async (...args) => (await sink()).threadLink?.(...args),
    tellUser: async (...args) => (await sink()).tellUser?.(...args),
  };
}

/** Slack's user groups, with the client loaded on the first lookup (an approval click). */
export function lazySlackDirectory(options: SlackDirectoryOptions): ApproverDirectory {
  const directory = onFirstCall(async () =>
    (await import('../src/slack/directory.ts')).slackDirectory(options),
  );
  return { groupsOf: async (...args) => (await directory()).groupsOf(...args) };
}
