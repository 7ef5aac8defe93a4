/**
 * Just enough of cobra/pflag's command-line handling for the Cilium CLIs: long and short flags,
 * `--flag=value`, and cobra's error texts for unknown commands and flags.
 */
export interface ParsedFlags {
  values: Map<string, string>;
  booleans: Set<string>;
  positionals: string[];
  unknown?: string;
}

export interface FlagSpec {
  /** Flags that take a value, by every spelling (`-o`, `--output`), mapped to one canonical name. */
  withValue: Record<string, string>;
  /** Boolean flags, by every spelling, mapped to one canonical name. */
  boolean: Record<string, string>;
}

export function parseFlags(args: string[], spec: FlagSpec): ParsedFlags {
  const parsed: ParsedFlags = { values: new Map(), booleans: new Set(), positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    const valued = spec.withValue[name as string];
    const bool = spec.boolean[name as string];
    if (valued) {
      const value = inline ?? args[++i];
      if (value === undefined) return { ...parsed, unknown: `flag needs an argument: ${name}` };
      parsed.values.set(valued, value);
    } else if (bool) {
      parsed.booleans.add(bool);
    } else {
      const flag = (name as string).startsWith('--')
        ? (name as string)
        : `'${(name as string).slice(1)}' in ${name}`;
      return {
        ...parsed,
        unknown: (name as string).startsWith('--')
          ? `unknown flag: ${flag}`
          : `unknown shorthand flag: ${flag}`,
      };
    }
  }
  return parsed;
}

/** cobra's error for a flag problem: `Error: unknown flag: --foo`, then the usage hint. */
export function flagError(program: string, command: string, message: string): string {
  return `Error: ${message}\nRun '${program} ${command} --help' for usage.\n`;
}

/** cobra's error for an unknown subcommand. */
export function unknownCommand(program: string, command: string): string {
  return `Error: unknown command "${command}" for "${program}"\nRun '${program} --help' for usage.\n`;
}

/** The program name cobra uses: the basename it was invoked by. */
export function programName(argv0: string): string {
  return argv0.slice(argv0.lastIndexOf('/') + 1);
}
