import { SlackError, WebAPIPlatformError, WebAPIRequestError } from '@slack/web-api';

/** What to do about the Web API errors a report post can meet. */
const HINTS: Record<string, string> = {
  channel_not_found: 'check the channel in the config (name or id) and invite the bot to it',
  not_in_channel: 'invite the bot to the channel',
  is_archived: 'the channel is archived: point the cluster at another channel',
  invalid_auth: 'check SLACK_BOT_TOKEN',
  not_authed: 'check SLACK_BOT_TOKEN',
  token_revoked: 'the bot token was revoked: reinstall the app and update SLACK_BOT_TOKEN',
  missing_scope: 'the bot token needs the chat:write scope',
  invalid_blocks: 'the message broke a Block Kit rule: this is a responder bug, please report it',
};

/** A failed Web API call, with Slack's error code and what to do about it. */
export class SlackCallError extends Error {
  constructor(
    readonly method: string,
    /** Slack's error (`channel_not_found`), or the client's (`slack_webapi_http_error`) when Slack was not reached. */
    readonly code: string,
    detail: string | undefined,
    options?: ErrorOptions,
  ) {
    super(`Slack ${method} failed: ${code}${detail ? ` (${detail})` : ''}`, options);
    this.name = 'SlackCallError';
  }
}

export function slackCallError(method: string, error: unknown): SlackCallError {
  if (error instanceof WebAPIPlatformError) {
    const code = error.data.error;
    return new SlackCallError(method, code, HINTS[code], { cause: error });
  }
  const code = error instanceof SlackError ? error.code : 'request_failed';
  // The client wraps network and retry failures; the wrapped message is the one that says what happened.
  const cause = error instanceof WebAPIRequestError ? error.original : error;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new SlackCallError(method, code, detail, { cause: error });
}
