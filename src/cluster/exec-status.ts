import type { V1Status } from '@kubernetes/client-node';

/** Shell convention: 127 the command was not found, 126 it was found but could not run. */
export const EXIT_NOT_FOUND = 127;
const EXIT_CANNOT_RUN = 126;

const MISSING_EXECUTABLE = /executable file not found|no such file or directory/i;

/**
 * The exit code and message of an exec's final Status: Success is 0; NonZeroExitCode carries the
 * code in its ExitCode cause; any other Failure means the runtime never ran the process.
 */
export function exitFromStatus(status: V1Status): { exitCode: number; message?: string } {
  if (status.status === 'Success') return { exitCode: 0 };
  const message = status.message ?? status.reason ?? 'exec failed';
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
    const exitCode = Number(cause?.message);
    return { exitCode: Number.isInteger(exitCode) ? exitCode : 1, message };
  }
  return { exitCode: MISSING_EXECUTABLE.test(message) ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN, message };
}
