import { constants } from 'node:os';
import { LOCAL_WORKER } from './state-lock.ts';

export interface Interrupt {
  /** Aborts on Ctrl-C (or SIGTERM), with the reason the run's record gives. */
  signal: AbortSignal;
  /** 128 + the signal's number once one came, as shells expect; undefined otherwise. */
  exitCode(): number | undefined;
  /** For when the run ends: the handlers off, the fallback cancelled. */
  uninstall(): void;
}

/**
 * While a local run goes on, Ctrl-C (or SIGTERM) stops it: `signal` aborts, so the step under way
 * ends at once (its waits, execs and monitors with it), the run is recorded interrupted with the
 * writes it journaled and its lease given back, and the command ends with `exitCode()`. Should
 * the run not have ended within `graceMs`, `giveUp` closes what it left open and the process
 * exits. A second Ctrl-C exits at once.
 */
export function stopOnInterrupt(giveUp: (graceMs: number) => Promise<void>, graceMs = 1_500): Interrupt {
  const controller = new AbortController();
  let exitCode: number | undefined;
  let fallback: NodeJS.Timeout | undefined;
  const handler = (signal: NodeJS.Signals) => {
    const code = 128 + constants.signals[signal];
    if (exitCode !== undefined) process.exit(code);
    exitCode = code;
    process.stderr.write(`\n${signal}: stopping; the run is recorded as interrupted\n`);
    const by = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    controller.abort(new Error(`stopped by ${by} (${LOCAL_WORKER})`));
    fallback = setTimeout(() => {
      giveUp(graceMs)
        .catch((error: unknown) =>
          process.stderr.write(
            `could not close the run: ${error instanceof Error ? error.message : error}\n`,
          ),
        )
        .finally(() => process.exit(code));
    }, graceMs);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    exitCode: () => exitCode,
    uninstall: () => {
      clearTimeout(fallback);
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
