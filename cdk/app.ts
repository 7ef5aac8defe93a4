import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadConfigWithRunbooks, RunbookModuleError } from '../runbooks/team.ts';
import { ConfigError } from '../src/config/load.ts';
import { stackRegion } from './access-entries.ts';
import { configFile, deployProblems } from './config-file.ts';
import { EXAMPLE_STACK, refuseDeploy } from './example-guard.ts';
import { ResponderStack } from './responder-stack.ts';

// `npx cdk synth` / `npx cdk deploy`: the stack from the responder config, validated by the same
// schema as at run time, so a bad file fails here with its file, line and field, and nothing else.
async function synth(): Promise<void> {
  const app = new App();
  const context = { config: app.node.tryGetContext('config'), example: app.node.tryGetContext('example') };
  const file = configFile(context);
  // The example's simulator cluster is for looking at the template, never for a deploy.
  const { config, runbooks } = await loadConfigWithRunbooks(
    file.path,
    file.example ? undefined : deployProblems,
  );
  const alarmEmail = app.node.tryGetContext('alarmEmail');
  const stack = new ResponderStack(app, file.example ? EXAMPLE_STACK : 'CiliumResponder', {
    description: 'Cilium Responder: incident responder for EKS clusters that run Cilium',
    // The clusters' region (see stackRegion), else the CLI's; the account is the credentials'.
    env: {
      account: process.env.CDK_DEFAULT_ACCOUNT,
      region: stackRegion(config) ?? process.env.CDK_DEFAULT_REGION,
    },
    responder: {
      config,
      configPath: file.path,
      runbooks,
      ...(typeof alarmEmail === 'string' ? { alarmEmail } : {}),
    },
  });
  if (file.example) refuseDeploy(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
}

try {
  await synth();
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof RunbookModuleError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
