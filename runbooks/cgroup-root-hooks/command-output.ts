import type { z } from 'zod';
import { type ExecResult, zodProblem } from '../../sdk/index.ts';

/** What a command that exited non-zero said: its stderr, else the runtime's message, else the code. */
export function failureText(result: ExecResult): string {
  return result.stderr.toString().trim() || result.message || `exit code ${result.exitCode}`;
}

/** A command's JSON output, or an error that names the command. */
export function parseJsonOutput(output: string, command: string): unknown {
  try {
    return JSON.parse(output);
  } catch (error) {
    throw new Error(`${command} printed JSON that does not parse: ${(error as Error).message}`);
  }
}

/** The value in the schema's shape, or an error naming the command and the first field that is off. */
export function validateOutput<T>(schema: z.ZodType<T>, value: unknown, command: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(`${command} printed unexpected JSON: ${zodProblem(parsed.error)}`);
}
