import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { CiliumResponder, type CiliumResponderProps } from './cilium-responder.ts';

/** The deployable stack; cdk-nag's AWS Solutions rules check it (see app.ts), with these reasons acknowledged. */
export class ResponderStack extends Stack {
  readonly responder: CiliumResponder;

  constructor(scope: Construct, id: string, props: StackProps & { responder: CiliumResponderProps }) {
    super(scope, id, props);
    this.responder = new CiliumResponder(this, 'Responder', props.responder);
    new CfnOutput(this, 'FunctionUrl', {
      value: this.responder.url,
      description: 'Alertmanager, Slack commands and interactivity, operator endpoints',
    });
    new CfnOutput(this, 'SecretsArn', {
      value: this.responder.secret.secretArn,
      description: 'Put {slackSigningSecret, slackBotToken, alertmanagerToken, operatorToken} here',
    });
    new CfnOutput(this, 'WorkerRoleArn', {
      value: this.responder.worker.role?.roleArn ?? '',
      description: 'Map it into clusters in other accounts (their role trusts it)',
    });
    for (const acknowledged of [
      {
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The least a Lambda function needs to write its own logs; no other managed policy is used.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason:
          'Only actions that take no resource: xray:PutTraceSegments and xray:PutTelemetryRecords (tracing), and for the worker ec2:DescribeInstances and ec2:DescribeSecurityGroups (EC2 describe calls cannot be scoped). No write action.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::<ResponderState076B6637.Arn>/index/*]',
        reason:
          "The table's own indexes (runs by cluster, runs by time), which listing the audit trail queries.",
      },
      {
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::<ResponderSweep407B8944.Arn>:*]',
        reason:
          'Versions and aliases of the sweep function, which EventBridge Scheduler invokes; nothing else.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-SMG4',
        reason:
          'The Slack signing secret and bot token are issued by Slack, the webhook and operator tokens by their operators; they rotate there, not by a rotation Lambda.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-L1',
        reason:
          'nodejs22.x: the newest runtime this code is built and tested for (esbuild target node22); moving up is a tested change.',
      },
    ])
      Validations.of(this).acknowledge(acknowledged);
  }
}
