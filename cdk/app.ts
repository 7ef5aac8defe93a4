import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadConfigWithRunbooks } from '../runbooks/team.ts';
import { configFile } from './config-file.ts';
import { ResponderStack } from './responder-stack.ts';

// `npx cdk synth` / `npx cdk deploy`: the stack from the responder config, validated by the same
// schema as at run time, so a bad file fails here with its file, line and field.
const app = new App();
const file = configFile(app.node.tryGetContext('config'));
if (file.example)
  process.stderr.write(
    `no responder.config.yaml: building from the example (${file.path}); copy and edit it\n`,
  );
const { config, runbooks } = await loadConfigWithRunbooks(file.path);
new ResponderStack(app, 'CiliumResponder', {
  description: 'Cilium Responder: incident responder for EKS clusters that run Cilium',
  responder: { config, configPath: file.path, runbooks },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
