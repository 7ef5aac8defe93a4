export { APPROVAL_ACTION_IDS } from './action-ids.ts';
export { type CommandContext, parseSlashCommand, resolveCommand, type SlackCommand } from './command.ts';
export { CommandError, type CommandRequest } from './command-grammar.ts';
export { slackDirectory } from './directory.ts';
export { parseBlockActions } from './interactions.ts';
export { verifySlackSignature } from './signature.ts';
export { slackSink } from './sink.ts';
