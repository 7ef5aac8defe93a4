import type { Logger } from '../engine/types.ts';
import type { ChatSink } from './types.ts';

/** A report that could not be posted because no chat is configured: it stays in the audit trail. */
export class ChatNotConfiguredError extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'ChatNotConfiguredError';
  }
}

/**
 * Chat before it is configured (Slack's bot token still empty): runs still run and are recorded;
 * a report is refused with why (the worker logs it and keeps the report in the audit trail), and
 * a note is logged instead of posted. Nothing here fails a job, so nothing goes to the DLQ for it.
 */
export function unconfiguredChat(why: string, log: Logger): ChatSink {
  return {
    async postReport() {
      throw new ChatNotConfiguredError(why);
    },
    async postText(target, text) {
      log.warn(`not posted to ${target.channel}: ${why}`, { threadKey: target.threadKey, text });
      return {};
    },
  };
}
