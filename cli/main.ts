import { Command, CommanderError } from 'commander';
import { demoCommand } from './commands/demo.ts';
import { simCommand } from './commands/sim.ts';

/** Entry point of the `responder` command; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = new Command('responder')
    .description('Cilium Responder: find and fix Cilium incidents on EKS')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });
  for (const command of [simCommand(), demoCommand()]) {
    // Subcommands do not inherit these: without them commander would exit the process itself.
    program.addCommand(command.exitOverride().configureOutput({ outputError: (text, write) => write(text) }));
  }
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
