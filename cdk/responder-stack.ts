import { Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ConfigError } from '../src/config/load.ts';
import { stackRegion } from './access-entries.ts';
import { CiliumResponder, type CiliumResponderProps } from './cilium-responder.ts';

/**
 * The deployable stack, in the region its same-account clusters are in (or `deploy.region`), and
 * one small stack per other region that holds the access entries of the clusters there. cdk-nag's
 * AWS Solutions rules check it (see app.ts), with these reasons acknowledged.
 */
export class ResponderStack extends Stack {
  readonly responder: CiliumResponder;
  /** The stacks in other regions, by region: each holds the access entries of its clusters. */
  readonly regional = new Map<string, Stack>();

  constructor(scope: Construct, id: string, props: StackProps & { responder: CiliumResponderProps }) {
    const region = stackRegion(props.responder.config);
    super(scope, id, { ...props, env: props.env ?? (region ? { region } : {}) });
    this.responder = new CiliumResponder(this, 'Responder', {
      accessEntriesElsewhere: (other) => this.regionalStack(scope, id, other),
      ...props.responder,
    });
    for (const acknowledged of [
      {
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The least a Lambda function needs to write its own logs; no other managed policy is used.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason:
          "Only actions that take no resource: xray:PutTraceSegments and xray:PutTelemetryRecords (tracing), secretsmanager:BatchGetSecretValue (each secret it returns also needs GetSecretValue, granted on the stack's secrets only), and for the worker ec2:DescribeInstances and ec2:DescribeSecurityGroups (EC2 describe calls cannot be scoped). No write action.",
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
      {
        id: 'AwsSolutions::AwsSolutions-SQS3',
        reason:
          'EventDeadLetters is itself a dead-letter queue (of the EventBridge rule and Scheduler targets), watched by an alarm.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-SNS2',
        reason:
          'The alarm topic carries alarm names and states, no data; CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed key.',
      },
    ])
      Validations.of(this).acknowledge(acknowledged);
  }

  /** The stack for `region`'s access entries, made once; it needs the account to name the worker role. */
  private regionalStack(scope: Construct, id: string, region: string): Stack {
    const existing = this.regional.get(region);
    if (existing) return existing;
    if (Token.isUnresolved(this.account))
      throw new ConfigError(
        `clusters in ${region} as well as ${this.region}: a stack there needs the AWS account at synth (run cdk with credentials, or set CDK_DEFAULT_ACCOUNT)`,
      );
    const stack = new Stack(scope, `${id}-${region}`, {
      env: { account: this.account, region },
      description: `Cilium Responder: EKS access entries of the clusters in ${region}`,
    });
    stack.addStackDependency(this, 'its access entries map the worker role this stack creates');
    this.regional.set(region, stack);
    return stack;
  }
}
