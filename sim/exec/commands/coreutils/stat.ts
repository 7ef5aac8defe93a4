import type { Invocation } from '../../types.ts';
import { type FsEntry, lookupPath } from '../fs/container-fs.ts';

interface StatArgs {
  format?: string;
  fileSystem: boolean;
  operands: string[];
  /** --printf takes the format as is; -c/--format add a newline. */
  newline: boolean;
}

function parseArgs(args: string[]): StatArgs {
  const parsed: StatArgs = { fileSystem: false, operands: [], newline: true };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-c' || arg === '--format') parsed.format = args[++i];
    else if (arg.startsWith('--format=')) parsed.format = arg.slice('--format='.length);
    else if (arg.startsWith('--printf=')) {
      parsed.format = arg.slice('--printf='.length).replaceAll('\\n', '\n');
      parsed.newline = false;
    } else if (arg.startsWith('-c') && arg.length > 2) parsed.format = arg.slice(2);
    else if (arg === '-f' || arg === '--file-system') parsed.fileSystem = true;
    else if (arg === '-L' || arg === '--dereference') continue;
    else parsed.operands.push(arg);
  }
  return parsed;
}

const FILE_TYPES: Record<FsEntry['kind'], string> = {
  cgroup: 'directory',
  directory: 'directory',
  file: 'regular file',
  symlink: 'symbolic link',
};

function expand(format: string, operand: string, entry: FsEntry, fileSystem: boolean): string {
  return format.replace(/%(.)/g, (whole, directive: string) => {
    switch (directive) {
      case 'i':
        return fileSystem ? '0' : String(entry.inode);
      case 'n':
        return operand;
      case 'F':
        return FILE_TYPES[entry.kind];
      case 'T':
        return entry.kind === 'cgroup' ? 'cgroup2fs' : entry.fsType;
      case '%':
        return '%';
      default:
        return whole;
    }
  });
}

/**
 * coreutils stat with a format (`stat -c %i /run/cilium/cgroupv2`): the cgroup2 root is inode 1
 * only when the mount really is the host's root. Missing paths fail as coreutils 9 reports them.
 */
export function stat({ ctx, argv, io }: Invocation): number {
  const args = parseArgs(argv.slice(1));
  if (args.operands.length === 0) {
    io.stderr("stat: missing operand\nTry 'stat --help' for more information.\n");
    return 1;
  }
  if (args.format === undefined) {
    io.stderr('stat: the simulated stat prints formats only; use -c FORMAT\n');
    return 1;
  }
  let status = 0;
  for (const operand of args.operands) {
    const entry = lookupPath(ctx, operand);
    if (!entry) {
      io.stderr(
        args.fileSystem
          ? `stat: cannot read file system information for '${operand}': No such file or directory\n`
          : `stat: cannot statx '${operand}': No such file or directory\n`,
      );
      status = 1;
      continue;
    }
    io.stdout(`${expand(args.format, operand, entry, args.fileSystem)}${args.newline ? '\n' : ''}`);
  }
  return status;
}
