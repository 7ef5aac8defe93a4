/** A listen error as a person reads it: a busy port says so and what to do, anything else as is. */
export function listenError(error: unknown, host: string, port: number | undefined): Error {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return new Error(
      `port ${port} on ${host} is already in use: stop what holds it, or pick another with --port`,
    );
  return error instanceof Error ? error : new Error(String(error));
}
