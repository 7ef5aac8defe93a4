import { Command } from 'commander';

/** `responder init`: a team's project in this folder, ready for `npm install`, its tests and `cdk synth`. */
export function initCommand(): Command {
  return new Command('init')
    .description(
      'write a project here: package.json (ES module, scripts, tools), cdk.json, tsconfig.json, responder.config.yaml, cdk/app.ts, an example runbook and its test',
    )
    .option('--dir <path>', 'the project folder', '.')
    .action(async (options: { dir: string }) => {
      const { EXAMPLE_RUNBOOK, initProject } = await import('../actions/init.ts');
      const { written, kept } = await initProject(options.dir);
      process.stdout.write(
        [
          ...written.map((file) => `wrote ${file}`),
          ...kept.map((file) => `kept ${file} (exists)`),
          '',
          'Next:',
          '  npm install                 # the tools package.json now lists',
          `  npm test                    # tsc, then test/${EXAMPLE_RUNBOOK}.test.ts on a simulated cluster`,
          `  npx responder run ${EXAMPLE_RUNBOOK} --sim healthy`,
          '  npx cdk synth               # after naming your EKS clusters in responder.config.yaml',
          '',
        ].join('\n'),
      );
    });
}
