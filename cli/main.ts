import { Command, CommanderError } from 'commander';
import { brakeCommand } from './commands/brake.ts';
import { demoCommand } from './commands/demo.ts';
import { historyCommand } from './commands/history.ts';
import { listCommand } from './commands/list.ts';
import { runCommand } from './commands/run.ts';
import { serveCommand } from './commands/serve.ts';
import { simCommand } from './commands/sim.ts';
import { sweepCommand } from './commands/sweep.ts';

/** Subcommands do not inherit these: without them commander would exit the process itself. */
function withOurExits(command: Command): Command {
  command.exitOverride().configureOutput({ outputError: (text, write) => write(text) });
  for (const child of command.commands) withOurExits(child);
  return command;
}

/** Entry point of the `responder` command; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  const program = new Command('responder')
    .description('Cilium Responder: find and fix Cilium incidents on EKS')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });
  for (const command of [
    listCommand(),
    runCommand(setExitCode),
    serveCommand(),
    historyCommand(),
    brakeCommand(),
    sweepCommand(setExitCode),
    simCommand(),
    demoCommand(setExitCode),
  ]) {
    program.addCommand(withOurExits(command));
  }
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
