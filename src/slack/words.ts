import type { ReaderWords } from '../report/summary.ts';

/** How a Slack message names what a person types: `/cilium run <runbook> <cluster> --apply`. */
export const SLACK_WORDS: ReaderWords = { apply: '--apply' };
