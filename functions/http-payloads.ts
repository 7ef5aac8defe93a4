// What the http function's payload routes need, loaded by the first of them: the payloads' schemas
// and zod are most of what the function would otherwise compile and run at every cold start.
export { answerApprovalClick } from '../src/app/approval-click.ts';
export { handleSlashCommand } from '../src/app/slack-command.ts';
export { parseBlockActions } from '../src/slack/interactions.ts';
export { parseAlertmanager, parseGrafana } from '../src/triggers/index.ts';
