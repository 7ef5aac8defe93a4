/** One esbuild diagnostic line as tsx's "Transform failed" message carries it. */
const ESBUILD_ERROR = /^(.+:\d+:\d+): ERROR: (.+)$/;

/**
 * Why a TypeScript module (a team runbook, a scenario) did not load, on one line. A syntax error
 * reaches us as esbuild's "Transform failed with 1 error:" with the file, line, column and message
 * on the lines below it: those lines are the error, so they are what is kept.
 */
export function loadProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const [first = '', ...rest] = message.split('\n');
  const located = rest.flatMap((line) => {
    const match = ESBUILD_ERROR.exec(line.trim());
    return match ? [`${match[1]}: ${match[2]}`] : [];
  });
  return located.length > 0 ? located.join('; ') : first;
}
