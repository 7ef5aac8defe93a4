import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResponderStack } from '../../cdk/responder-stack.ts';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { parseConfig } from '../../src/config/load.ts';

const CONFIG_TEXT = `
clusters:
  - name: prod-eu
    eks: { name: prod-eu, region: eu-west-1 }
  - name: partner
    eks: { name: partner-prod, region: us-east-2, roleArn: 'arn:aws:iam::111122223333:role/cilium-responder' }
routes:
  - match: { source: cloudwatch, alarmName: cilium-node-connectivity-down }
    runbook: tunnel-datapath
schedules:
  - name: nightly
    expression: cron(0 3 * * ? *)
`;

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

describe('ResponderStack', () => {
  let template: Template;
  let app: App;
  beforeAll(() => {
    // Bundling is the bench's and the deploy's; here the template is what is checked.
    app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new ResponderStack(app, 'Test', {
      responder: {
        config: parseConfig(CONFIG_TEXT, 'test.yaml', { runbooks: RUNBOOK_IDS }),
        configPath: 'responder.config.example.yaml',
      },
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    template = Template.fromStack(stack);
  });

  it('has four functions on nodejs22.x, arm64, with the environment the code reads', () => {
    template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      { Runtime: 'nodejs22.x', Architectures: ['arm64'] },
      4,
    );
    template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          TABLE_NAME: Match.anyValue(),
          QUEUE_URL: Match.anyValue(),
          DEAD_LETTER_QUEUE_URL: Match.anyValue(),
          SECRETS_ID: Match.anyValue(),
          RESPONDER_CONFIG: './responder.config.yaml',
          MAX_ATTEMPTS: '3',
        }),
      },
    });
  });

  it('wires each trigger: a Function URL, the alarm rule, the schedule, the SQS worker with partial failures', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.cloudwatch'],
        'detail-type': ['CloudWatch Alarm State Change'],
        detail: { alarmName: ['cilium-node-connectivity-down'], state: { value: ['ALARM'] } },
      },
    });
    // The alarm's direct Lambda action may invoke the alarm function, for that alarm only.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'lambda.alarms.cloudwatch.amazonaws.com',
      SourceArn: Match.objectLike({
        'Fn::Join': Match.arrayWith([Match.arrayWith([':alarm:cilium-node-connectivity-down'])]),
      }),
    });
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(0 3 * * ? *)',
      Target: Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 } }),
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::Lambda::Function', { ReservedConcurrentExecutions: 5 });
  });

  it('queues jobs with a dead-letter queue after MAX_ATTEMPTS, visible longer than the worker runs', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const jobs = Object.values(queues).find((q) => q.Properties?.RedrivePolicy);
    expect(jobs?.Properties.RedrivePolicy.maxReceiveCount).toBe(3);
    const workerTimeout = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.ReservedConcurrentExecutions,
    )?.Properties.Timeout;
    expect(jobs?.Properties.VisibilityTimeout).toBeGreaterThan(workerTimeout);
  });

  it('alarms on dead letters, worker errors and brake trips', () => {
    template.resourceCountIs('AWS::CloudWatch::Alarm', 3);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'CiliumResponder',
      MetricName: 'BrakeTrips',
    });
  });

  it('keeps state in one table with TTL and point-in-time recovery', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('maps the worker into each same-account EKS cluster, and may assume only the configured role', () => {
    template.resourceCountIs('AWS::EKS::AccessEntry', 1);
    template.hasResourceProperties('AWS::EKS::AccessEntry', {
      ClusterName: 'prod-eu',
      KubernetesGroups: ['cilium-responder'],
    });
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
    );
    const assume = statements.filter((s) => [s.Action].flat().includes('sts:AssumeRole'));
    expect(assume.map((s) => s.Resource)).toEqual(['arn:aws:iam::111122223333:role/cilium-responder']);
    const describe = statements.find((s) => [s.Action].flat().includes('eks:DescribeCluster'));
    expect(JSON.stringify(describe?.Resource)).toContain(':cluster/prod-eu');
  });

  it('lets every function read the secret, and only read it', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const secretStatements = policies.flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as Statement[]).filter((s) =>
        [s.Action].flat().some((action) => action.startsWith('secretsmanager:')),
      ),
    );
    expect(secretStatements).toHaveLength(4);
    for (const statement of secretStatements)
      expect([statement.Action].flat().sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
  });

  it('has no wildcard on any write action', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
    );
    const readOnly =
      /^(ec2:Describe|xray:Put|dynamodb:(Get|Query|Scan|Describe|ConditionCheck|BatchGet)|secretsmanager:(Get|Describe))/;
    for (const statement of statements) {
      const resources = [statement.Resource].flat();
      if (!resources.includes('*')) continue;
      for (const action of [statement.Action].flat())
        expect(readOnly.test(action) || action.startsWith('xray:'), `${action} on *`).toBe(true);
    }
  });

  it('passes cdk-nag with only acknowledged findings', () => {
    expect(() => app.synth()).not.toThrow();
  });
});
