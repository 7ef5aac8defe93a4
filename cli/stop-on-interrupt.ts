import { constants } from 'node:os';

/**
 * While a local run goes on, Ctrl-C (or SIGTERM) ends it cleanly: `stop` closes what the run left
 * open (its record interrupted with the writes it journaled, its lease released, the state
 * closed), then the process exits 128 + the signal's number, as shells expect. A second Ctrl-C
 * while stopping exits at once. Returns the uninstall, for when the run ends by itself.
 */
export function stopOnInterrupt(stop: () => Promise<void>): () => void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    const code = 128 + constants.signals[signal];
    if (stopping) process.exit(code);
    stopping = true;
    process.stderr.write(`\n${signal}: stopping; the run is recorded as interrupted\n`);
    stop()
      .catch((error: unknown) =>
        process.stderr.write(`could not close the run: ${error instanceof Error ? error.message : error}\n`),
      )
      .finally(() => process.exit(code));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
