/**
 * The runtime could not start the process (runc's exec failed), as opposed to a process that ran
 * and exited non-zero. Kubelet reports it as an InternalError status, not as an exit code.
 */
export class ExecStartError extends Error {
  constructor(readonly executable: string) {
    super(runcMessage(executable));
  }
}

/** runc's wording: a bare name is looked up in $PATH, a path is stat'ed. */
function runcMessage(executable: string): string {
  const cause = executable.includes('/')
    ? `stat ${executable}: no such file or directory`
    : 'executable file not found in $PATH';
  return `OCI runtime exec failed: exec failed: unable to start container process: exec: "${executable}": ${cause}: unknown`;
}
