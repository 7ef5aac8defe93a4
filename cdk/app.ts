import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { ConfigError, loadConfig } from '../src/config/load.ts';
import { stackRegion } from './access-entries.ts';
import { configFile, undeployableClusters } from './config-file.ts';
import { ResponderStack } from './responder-stack.ts';

// `npx cdk synth` / `npx cdk deploy`: the stack from the responder config, validated by the same
// schema as at run time, so a bad file fails here with its file, line and field, and nothing else.
async function synth(): Promise<void> {
  const app = new App();
  const context = { config: app.node.tryGetContext('config'), example: app.node.tryGetContext('example') };
  const file = configFile(context);
  const config = await loadConfig(file.path, { runbooks: RUNBOOK_IDS });
  // The example's simulator cluster is for looking at the template, never for a deploy.
  const problems = file.example ? [] : undeployableClusters(config);
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `${file.path}: ${p}`).join('\n'));
  const alarmEmail = app.node.tryGetContext('alarmEmail');
  new ResponderStack(app, 'CiliumResponder', {
    description: 'Cilium Responder: incident responder for EKS clusters that run Cilium',
    // The clusters' region (see stackRegion), else the CLI's; the account is the credentials'.
    env: {
      account: process.env.CDK_DEFAULT_ACCOUNT,
      region: stackRegion(config) ?? process.env.CDK_DEFAULT_REGION,
    },
    responder: {
      config,
      configPath: file.path,
      ...(typeof alarmEmail === 'string' ? { alarmEmail } : {}),
    },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
}

try {
  await synth();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
