/**
 * Bad input at the edge. `field` is the path of the offending value (`alerts[0].labels`, `text`);
 * `message` starts with it and is meant for the sender, as the body of a 4xx answer.
 */
export class TriggerError extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'TriggerError';
  }
}
