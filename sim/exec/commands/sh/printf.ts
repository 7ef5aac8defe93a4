import { ShellUnsupported } from './syntax.ts';

const ESCAPES: Record<string, string> = { '\\': '\\', n: '\n', t: '\t', r: '\r', '"': '"', "'": "'" };

export interface PrintfResult {
  output: string;
  /** dash's complaints (an argument that is not a number), each its own line. */
  errors: string[];
}

/** A `%d` argument as dash reads it: an optional sign and digits; anything else is 0 and an error. */
function integer(arg: string | undefined, errors: string[]): string {
  if (arg === undefined || arg === '') return '0';
  const match = /^\s*([+-]?\d+)/.exec(arg);
  if (!match) {
    errors.push(`printf: ${arg}: expected numeric value`);
    return '0';
  }
  if (match[0].length !== arg.length) errors.push(`printf: ${arg}: expected numeric value`);
  return String(BigInt(match[1] as string));
}

/**
 * The shell's printf builtin, for `%s`, `%d`/`%i`, `%%` and the usual backslash escapes; the format
 * is reused while arguments remain, as POSIX says. Widths, flags and other conversions throw
 * ShellUnsupported rather than print something dash would not.
 */
export function printf(args: string[]): PrintfResult {
  const [format, ...rest] = args;
  if (format === undefined) throw new ShellUnsupported('printf without a format');
  const errors: string[] = [];
  let output = '';
  let next = 0;
  do {
    const before = next;
    for (let i = 0; i < format.length; i++) {
      const ch = format[i] as string;
      if (ch === '\\') {
        const escaped = format[i + 1];
        const replacement = escaped === undefined ? '\\' : ESCAPES[escaped];
        if (replacement === undefined) throw new ShellUnsupported(`the printf escape \\${escaped}`);
        output += replacement;
        i++;
      } else if (ch === '%') {
        const conversion = format[i + 1];
        if (conversion === '%') output += '%';
        else if (conversion === 's') output += rest[next++] ?? '';
        else if (conversion === 'd' || conversion === 'i') output += integer(rest[next++], errors);
        else throw new ShellUnsupported(`the printf conversion %${conversion ?? ''}`);
        i++;
      } else output += ch;
    }
    if (next === before) break;
  } while (next < rest.length);
  return { output, errors };
}
