import { WebClient } from '@slack/web-api';
import type { ApproverDirectory } from '../chat/types.ts';
import { slackCallError } from './errors.ts';
import { SLACK_RETRIES } from './sink.ts';

export interface SlackDirectoryOptions {
  /** The bot token, with the usergroups:read scope. */
  token: string;
  slackApiUrl?: string;
  /** How long a group's members are remembered (default 5 minutes). */
  ttlMs?: number;
  now?: () => number;
}

/** Approvers configured as Slack user groups (`S…`), resolved with `usergroups.users.list`. */
export function slackDirectory(options: SlackDirectoryOptions): ApproverDirectory {
  const client = new WebClient(options.token, {
    slackApiUrl: options.slackApiUrl ?? 'https://slack.com/api/',
    retryConfig: SLACK_RETRIES,
  });
  const ttlMs = options.ttlMs ?? 300_000;
  const now = options.now ?? Date.now;
  const members = new Map<string, { users: Set<string>; at: number }>();

  async function membersOf(group: string): Promise<Set<string>> {
    const cached = members.get(group);
    if (cached && now() - cached.at < ttlMs) return cached.users;
    try {
      const answer = await client.usergroups.users.list({ usergroup: group });
      const users = new Set(answer.users ?? []);
      members.set(group, { users, at: now() });
      return users;
    } catch (error) {
      throw slackCallError('usergroups.users.list', error);
    }
  }

  return {
    async groupsOf(userId, groups) {
      const found: string[] = [];
      for (const group of groups) if ((await membersOf(group)).has(userId)) found.push(group);
      return found;
    },
  };
}
