import type { ReaderWords } from '../../src/report/summary.ts';

/** How the terminal names what a person types: `responder run <runbook> --mode auto`. */
export const CLI_WORDS: ReaderWords = { apply: '--mode auto' };
