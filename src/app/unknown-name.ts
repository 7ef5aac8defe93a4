/** A cluster or runbook named that neither the config nor the run history knows. */
export class UnknownNameError extends Error {
  constructor(
    readonly field: 'cluster' | 'runbook',
    name: string,
    known: readonly string[],
  ) {
    super(`no ${field} "${name}" in the config or the run history; known: ${known.join(', ') || 'none'}`);
    this.name = 'UnknownNameError';
  }
}
