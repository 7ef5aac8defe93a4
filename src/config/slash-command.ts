/**
 * The slash command's name unless the config's slack.command says another, as the Slack app's
 * manifest declares it. Apart from the schema, so reading a command does not build the config's schema.
 */
export const DEFAULT_SLASH_COMMAND = '/cilium';
