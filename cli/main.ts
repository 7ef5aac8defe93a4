import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { brakeCommand } from './commands/brake.ts';
import { demoCommand } from './commands/demo.ts';
import { historyCommand } from './commands/history.ts';
import { initCommand } from './commands/init.ts';
import { listCommand } from './commands/list.ts';
import { newCommand } from './commands/new.ts';
import { rbacCommand } from './commands/rbac.ts';
import { runCommand } from './commands/run.ts';
import { serveCommand } from './commands/serve.ts';
import { simCommand } from './commands/sim.ts';
import { sweepCommand } from './commands/sweep.ts';

const VERSION = packageJson.version;

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
    .version(VERSION, '-V, --version')
    .addHelpText(
      'after',
      `
Examples:
  $ responder init                                 # a project for your own runbooks and stack
  $ responder list
  $ responder run all --sim all
  $ responder run unmanaged-pods --context prod --mode auto
  $ responder history

Config: --config, else $RESPONDER_CONFIG, else responder.config.yaml (responder init writes one).
Exit codes: 0 healthy or remediated, 1 problems remain, 2 a run failed or the command could not run.`,
    )
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
    rbacCommand(),
    demoCommand(setExitCode),
    initCommand(),
    newCommand(),
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
