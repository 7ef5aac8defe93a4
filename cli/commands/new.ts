import { Command } from 'commander';

/** `responder new runbook <id>`: a team's runbook, its doc, a step and a simulator test, ready to fill in. */
export function newCommand(): Command {
  const command = new Command('new').description('scaffold your own runbook in this project');
  command
    .command('runbook')
    .description('write runbooks/<id>/{index.ts,README.md,steps/} and test/<id>.test.ts')
    .argument('<id>', 'lowercase letters, digits and dashes, e.g. kube-proxy-coexistence')
    .option('--dir <path>', 'the project folder', '.')
    .action(async (id: string, options: { dir: string }) => {
      const { addToConfig, scaffoldRunbook } = await import('../actions/new-runbook.ts');
      const written = await scaffoldRunbook(id, options.dir);
      const named = await addToConfig(id, options.dir);
      process.stdout.write(
        `${written.map((file) => `created ${file}`).join('\n')}\n${
          named
            ? `added ./runbooks/${id}/index.ts to runbooks: in responder.config.yaml\n\nNext:`
            : `\nNext: add ./runbooks/${id}/index.ts to \`runbooks:\` in responder.config.yaml, then`
        }\n  npx vitest run test/${id}.test.ts\n  npx responder run ${id} --sim healthy --set maxNotReady=1\n`,
      );
    });
  return command;
}
