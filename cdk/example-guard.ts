import { Aws, CfnRule, Fn, type Stack } from 'aws-cdk-lib';

/** The example's stack name: never the team's, so even a forced deploy of it replaces nothing. */
export const EXAMPLE_STACK = 'CiliumResponderExample';

export const EXAMPLE_REFUSAL =
  'This is the template of responder.config.example.yaml, for looking at (cdk synth -c example=true); it is never deployed. Copy the example to responder.config.yaml, name your EKS clusters, and deploy that.';

/**
 * The example's template refuses to deploy. The CDK CLI does not tell the app whether it runs for
 * `synth` or `deploy` (and `cdk deploy --app cdk.out` runs no app at all), so the refusal is in
 * the template: CloudFormation checks a template's Rules before it creates or changes anything
 * (as CDK's own CheckBootstrapVersion rule), and this one never holds.
 */
export function refuseDeploy(stack: Stack): void {
  new CfnRule(stack, 'ExampleIsNotDeployed', {
    assertions: [
      // A stack's name is never empty: a pseudo parameter, as Rules take, in a check that always fails.
      { assert: Fn.conditionEquals(Aws.STACK_NAME, ''), assertDescription: EXAMPLE_REFUSAL },
    ],
  });
}
