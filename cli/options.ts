import { InvalidArgumentError } from 'commander';

/** Option parsers and help texts every command shares; nothing heavy, so `--help` stays fast. */

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535');
  return port;
}

export function parseCount(text: string): number {
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1)
    throw new InvalidArgumentError('expected a whole number, 1 or more');
  return count;
}

export function parseScenarios(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

export const CONFIG_HELP = 'the responder config (default: $RESPONDER_CONFIG or responder.config.yaml)';
export const STATE_HELP =
  'keep nothing between runs (default: runs, the brake and leases persist in $RESPONDER_STATE_DIR or ~/.local/state/cilium-responder)';
export const SERVER_HELP =
  'ask a running responder (`responder serve` or the deployed function URL) instead of the local state';
export const TOKEN_HELP = 'its operator token (default: $RESPONDER_OPERATOR_TOKEN)';
