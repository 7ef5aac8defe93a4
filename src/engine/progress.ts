/**
 * What a fan-out over agents says as it goes: `agents checked` while every one answers, and the
 * failures as failures once one does not (`3/3 agents: 0 checked, 3 failed`), never counted as checked.
 *
 * @example
 * ```ts
 * await ctx.cilium.forEachAgent(check, {
 *   signal: ctx.signal,
 *   onProgress: (done, total, failed) => ctx.progress(done, total, agentsLabel(done, failed)),
 * });
 * ```
 */
export function agentsLabel(done: number, failed: number): string {
  return failed === 0 ? 'agents checked' : `agents: ${done - failed} checked, ${failed} failed`;
}
