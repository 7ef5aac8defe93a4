import { App, Stack } from 'aws-cdk-lib';
import { CiliumResponder, loadConfigWithRunbooks } from 'cilium-responder';

// The team's stack: the responder, its worker carrying the runbooks responder.config.yaml names.
const configPath = 'responder.config.yaml';
const { config, runbooks } = await loadConfigWithRunbooks(configPath);
const app = new App();
// The region of the clusters' access entries (EKS access entries live in their cluster's region).
const stack = new Stack(app, 'TeamResponder', { env: { region: 'eu-west-1' } });
new CiliumResponder(stack, 'Responder', { config, configPath, runbooks });
app.synth();
