/**
 * The few Block Kit shapes the reports use, and Slack's limits for them
 * (https://docs.slack.dev/reference/block-kit/blocks). Messages over a limit are refused whole.
 */

export const LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  headerText: 150,
  buttonText: 75,
  confirmTitle: 100,
  confirmText: 300,
  /** Slack's practical ceiling for one message's text across all blocks. */
  messageText: 13_000,
} as const;

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface Mrkdwn {
  type: 'mrkdwn';
  text: string;
}

export interface HeaderBlock {
  type: 'header';
  text: PlainText;
}

export interface SectionBlock {
  type: 'section';
  text: Mrkdwn;
}

export interface ContextBlock {
  type: 'context';
  elements: Mrkdwn[];
}

export interface DividerBlock {
  type: 'divider';
}

export interface Button {
  type: 'button';
  action_id: string;
  text: PlainText;
  value: string;
  style?: 'primary' | 'danger';
  confirm?: {
    title: PlainText;
    text: PlainText;
    confirm: PlainText;
    deny: PlainText;
  };
}

export interface ActionsBlock {
  type: 'actions';
  block_id: string;
  elements: Button[];
}

export type ChatBlock = HeaderBlock | SectionBlock | ContextBlock | DividerBlock | ActionsBlock;

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack reads `&`, `<` and `>` as markup in mrkdwn: a pod named `<none>` must stay text. */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function plainText(text: string, max: number): PlainText {
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

export function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } };
}

export function context(text: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) }] };
}

/** A bullet longer than this is cut: one huge message must not push the rest of the list out. */
const BULLET_MAX = 400;

/**
 * A titled bullet list in one section: at most `max` lines, fewer if they would pass the section's
 * character limit, and an `…and N more` line for the rest.
 */
export function bulletSection(
  title: string,
  lines: readonly string[],
  max: number,
  maxChars: number = LIMITS.sectionText,
): SectionBlock {
  // Room for the title and the "more" line.
  let room = Math.min(maxChars, LIMITS.sectionText) - title.length - 40;
  const shown: string[] = [];
  for (const line of lines.slice(0, max)) {
    const bullet = `• ${truncate(line, BULLET_MAX)}`;
    if (bullet.length + 1 > room) break;
    shown.push(bullet);
    room -= bullet.length + 1;
  }
  const more = lines.length - shown.length;
  if (more > 0) shown.push(`_…and ${more} more_`);
  return section([title, ...shown].join('\n'));
}
