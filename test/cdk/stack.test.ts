import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { CiliumResponder } from '../../cdk/cilium-responder.ts';
import { ResponderStack } from '../../cdk/responder-stack.ts';
import { TABLE_OPERATIONS } from '../../cdk/table-grants.ts';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { parseConfig } from '../../src/config/load.ts';
import { deployOf } from '../../src/config/schema.ts';
import { tableDefinition } from '../../src/store/dynamodb/layout.ts';

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
/** A resource as the assertions library reads it. */
type Resource = ReturnType<Template['findResources']>[string];

/** The lib-dynamodb command (or paginator) each DynamoDB action is performed with. */
const STORE_OPERATIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Delete: 'DeleteItem',
  Update: 'UpdateItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

const config = (text: string) => parseConfig(text, 'test.yaml', { runbooks: RUNBOOK_IDS });
/** Bundling is the bench's and the deploy's; here the templates are what is checked. */
const testApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });

function statementsOf(template: Template): Statement[] {
  return Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
    (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
  );
}

describe('ResponderStack', () => {
  let template: Template;
  let app: App;
  let stack: ResponderStack;
  beforeAll(() => {
    app = testApp();
    stack = new ResponderStack(app, 'Test', {
      responder: { config: config(CONFIG_TEXT), configPath: 'responder.config.example.yaml' },
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
          RESPONDER_CONFIG: './responder.config.json',
          MAX_ATTEMPTS: '3',
        }),
      },
    });
  });

  it('runs only the worker with source maps enabled (see cdk/bundling.ts for the measured cost)', () => {
    const withMaps = Object.entries(template.findResources('AWS::Lambda::Function'))
      .filter(([, f]) => f.Properties.Environment.Variables.NODE_OPTIONS === '--enable-source-maps')
      .map(([id]) => id.replace(/^Responder|[0-9A-F]{8}$/g, ''));
    expect(withMaps).toEqual(['Worker']);
  });

  it('deploys to the region of its same-account cluster', () => {
    expect(stack.region).toBe('eu-west-1');
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
  });

  it('queues jobs with a dead-letter queue after MAX_ATTEMPTS, visible longer than the worker runs', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const jobs = Object.values(queues).find((q) => q.Properties?.RedrivePolicy);
    expect(jobs?.Properties.RedrivePolicy.maxReceiveCount).toBe(3);
    const workerTimeout = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.MemorySize === 1769,
    )?.Properties.Timeout;
    expect(jobs?.Properties.VisibilityTimeout).toBeGreaterThan(workerTimeout);
  });

  it('gives every event target a dead-letter queue and a retry policy, and alarms on that queue', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule'));
    const targets = rules.flatMap((rule) => rule.Properties.Targets);
    expect(targets.length).toBeGreaterThan(0);
    const schedules = Object.values(template.findResources('AWS::Scheduler::Schedule')).map(
      (schedule) => schedule.Properties.Target,
    );
    expect(schedules.length).toBeGreaterThan(0);
    const deadLetterArns = new Set<string>();
    for (const target of [...targets, ...schedules]) {
      expect(target.DeadLetterConfig?.Arn, JSON.stringify(target)).toBeDefined();
      expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 });
      deadLetterArns.add(JSON.stringify(target.DeadLetterConfig.Arn));
    }
    expect(deadLetterArns.size).toBe(1);
    const queue = JSON.parse([...deadLetterArns][0] as string)['Fn::GetAtt'][0];
    const alarmed = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((alarm) =>
      JSON.stringify(alarm.Properties.Dimensions ?? []).includes(queue),
    );
    expect(alarmed).toHaveLength(1);
    // Scheduler sends dead letters with its own role; EventBridge through the queue's policy.
    const invokerSends = statementsOf(template).some(
      (s) => [s.Action].flat().includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes(queue),
    );
    expect(invokerSends).toBe(true);
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'events.amazonaws.com' }, Action: 'sqs:SendMessage' }),
        ]),
      }),
    });
  });

  it('has an alarm on dead letters, errors of every function, the http throttle, bodies refused for size and brake trips, each notifying the topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    const metrics = alarms.map((alarm) => alarm.Properties.MetricName).sort();
    expect(metrics).toEqual([
      'ApproximateNumberOfMessagesVisible',
      'ApproximateNumberOfMessagesVisible',
      'BrakeTrips',
      'Errors',
      'Errors',
      'Errors',
      'Errors',
      'RequestsTooLarge',
      'Throttles',
    ]);
    const [topic] = Object.keys(template.findResources('AWS::SNS::Topic'));
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
    // No address in the config or context: nobody is subscribed by the stack.
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('gives every function its own log group with the retention of the config, deleted with the stack', () => {
    const groups = template.findResources('AWS::Logs::LogGroup') as Record<string, Resource>;
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions).toHaveLength(4);
    const used = functions.map((f) => f.Properties.LoggingConfig?.LogGroup?.Ref);
    expect(new Set(used).size).toBe(4);
    for (const id of used) {
      expect(groups[id]?.Properties.RetentionInDays, id).toBe(30);
      expect(groups[id]?.DeletionPolicy, id).toBe('Delete');
    }
  });

  it('keeps state in one table with TTL and point-in-time recovery, kept when the stack goes', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    });
  });

  it("gives the table the runs' indexes the store queries, as local tables have them", () => {
    const [table] = Object.values(template.findResources('AWS::DynamoDB::Table'));
    const local = tableDefinition('local');
    const shape = (indexes: { IndexName?: string; KeySchema?: unknown; Projection?: unknown }[]) =>
      indexes.map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection }));
    expect(shape(table?.Properties.GlobalSecondaryIndexes)).toEqual(
      shape(local.GlobalSecondaryIndexes ?? []),
    );
    expect(new Set(table?.Properties.AttributeDefinitions)).toEqual(new Set(local.AttributeDefinitions));
  });

  it('maps the worker into each same-account EKS cluster, and may assume only the configured role', () => {
    template.resourceCountIs('AWS::EKS::AccessEntry', 1);
    template.hasResourceProperties('AWS::EKS::AccessEntry', {
      ClusterName: 'prod-eu',
      KubernetesGroups: ['cilium-responder'],
    });
    const statements = statementsOf(template);
    const assume = statements.filter((s) => [s.Action].flat().includes('sts:AssumeRole'));
    expect(assume.map((s) => s.Resource)).toEqual(['arn:aws:iam::111122223333:role/cilium-responder']);
    const describe = statements.find((s) => [s.Action].flat().includes('eks:DescribeCluster'));
    expect(JSON.stringify(describe?.Resource)).toContain(':cluster/prod-eu');
  });

  it('starts both secrets as JSON: the Slack fields empty, each token generated', () => {
    const secrets = Object.values(template.findResources('AWS::SecretsManager::Secret')).map(
      (secret) => secret.Properties.GenerateSecretString,
    );
    expect(
      secrets.map((generate) => ({
        template: JSON.parse(generate.SecretStringTemplate),
        key: generate.GenerateStringKey,
      })),
    ).toEqual([
      { template: { slackSigningSecret: '', slackBotToken: '' }, key: 'alertmanagerToken' },
      { template: {}, key: 'operatorToken' },
    ]);
    for (const generate of secrets) expect(generate.ExcludePunctuation).toBe(true);
    // Deleted with the stack (README: Teardown), unlike the table.
    template.allResources('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' });
  });

  it('lets every function read the secret, only the http function the operator token, and only read them', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const operatorSecret = Object.keys(template.findResources('AWS::SecretsManager::Secret'))[1] as string;
    const readers = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => JSON.stringify(s.Resource).includes(operatorSecret))
        .map(() => policy.Properties.Roles[0].Ref as string),
    );
    const http = Object.entries(functions).find(([id]) => id.startsWith('ResponderHttp'))?.[1];
    expect(readers).toEqual([http?.Properties.Role['Fn::GetAtt'][0]]);
    const secretStatements = statementsOf(template).filter((s) =>
      [s.Action].flat().some((action) => action.startsWith('secretsmanager:')),
    );
    const [batch, scoped] = [
      secretStatements.filter((s) => s.Resource === '*'),
      secretStatements.filter((s) => s.Resource !== '*'),
    ];
    expect(scoped).toHaveLength(5);
    for (const statement of scoped)
      expect([statement.Action].flat().sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
    // Each function reads its secrets in one call, which takes no resource (GetSecretValue above still decides).
    expect(batch.map((s) => s.Action)).toEqual(Array(4).fill('secretsmanager:BatchGetSecretValue'));
  });

  it('grants each function only the table operations it performs (Query on the run indexes only)', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const [table] = Object.keys(template.findResources('AWS::DynamoDB::Table'));
    const granted: Record<string, string[]> = {};
    for (const name of Object.keys(TABLE_OPERATIONS)) {
      const [, fn] = Object.entries(functions).find(([id]) => id.startsWith(`Responder${name}`)) ?? [];
      const role = fn?.Properties.Role['Fn::GetAtt'][0];
      const statements = policies
        .filter((policy) => policy.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => JSON.stringify(s.Resource).includes(table as string));
      for (const s of statements) {
        const onIndexes = JSON.stringify(s.Resource).includes('/index/*');
        for (const action of [s.Action].flat())
          expect(onIndexes, `${name}: ${action}`).toBe(action === 'dynamodb:Query');
      }
      granted[name] = [...new Set(statements.flatMap((s) => [s.Action].flat()))].sort();
    }
    expect(granted).toEqual({
      Http: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
      Alarm: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
      Sweep: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
      Worker: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
    });
  });

  it('grants every table operation the DynamoDB store performs to some function (a new one needs a grant)', () => {
    const dir = 'src/store/dynamodb';
    const used = readdirSync(dir).flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/\bnew (\w+)Command\(|\bpaginate(\w+)\(/g)].map(
        ([, command, paginated]) => ({
          file,
          operation: STORE_OPERATIONS[command ?? paginated ?? ''] ?? command,
        }),
      ),
    );
    expect(used.map((u) => u.operation)).toContain('Query');
    const granted = new Set<string>(Object.values(TABLE_OPERATIONS).flat());
    for (const { file, operation } of used)
      expect(granted.has(operation as string), `${file}: ${operation}`).toBe(true);
  });

  it('reserves concurrency for the http function (its throttle) and the worker, by default', () => {
    const reserved = Object.entries(template.findResources('AWS::Lambda::Function'))
      .map(([id, f]) => [
        id.replace(/^Responder|[0-9A-F]{8}$/g, ''),
        f.Properties.ReservedConcurrentExecutions,
      ])
      .sort();
    expect(reserved).toEqual([
      ['Alarm', undefined],
      ['Http', 10],
      ['Sweep', undefined],
      ['Worker', 5],
    ]);
  });

  it('has no wildcard on any write action', () => {
    const readOnly =
      /^(ec2:Describe|xray:Put|dynamodb:(Get|Query|Scan|Describe|ConditionCheck|BatchGet)|secretsmanager:(Get|Describe|BatchGet))/;
    for (const statement of statementsOf(template)) {
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

describe('the deploy settings of the config', () => {
  const withDeploy = (deploy: string) =>
    Template.fromStack(
      new ResponderStack(testApp(), 'Settings', {
        responder: { config: config(`${CONFIG_TEXT}\ndeploy:\n${deploy}`), configPath: 'x.yaml' },
      }),
    );

  it('0 leaves a function unreserved; the log retention and the alarm address come from the config', () => {
    const template = withDeploy(
      '  reservedConcurrency: { http: 0, worker: 0 }\n  logRetentionDays: 90\n  alarmEmail: oncall@example.com\n',
    );
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')))
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    });
  });

  it("the example's deploy section, uncommented, is valid and shows the defaults", () => {
    const example = readFileSync('responder.config.example.yaml', 'utf8');
    const block = example
      .slice(example.indexOf('# deploy:\n'))
      .split('\n')
      .map((line) => line.slice(2))
      .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
      .join('\n');
    const parsed = config(`${CONFIG_TEXT}\n${block}\n`);
    expect(parsed.deploy).toEqual({
      ...deployOf(config(CONFIG_TEXT)),
      region: 'eu-west-1',
      alarmEmail: 'oncall@example.com',
      alertTopics: ['arn:aws:sns:eu-west-1:123456789012:amp-alerts'],
    });
  });

  it("subscribes the alarm function to the config's alert topics (AMP's, CloudWatch's), and SNS may invoke it for them only", () => {
    const topic = 'arn:aws:sns:eu-west-1:123456789012:amp-alerts';
    const template = withDeploy(`  alertTopics: [${topic}]\n`);
    const [alarm] = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) =>
      id.includes('Alarm'),
    );
    template.resourcePropertiesCountIs('AWS::SNS::Subscription', { Protocol: 'lambda' }, 1);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: topic,
      Endpoint: { 'Fn::GetAtt': [alarm, 'Arn'] },
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'sns.amazonaws.com',
      SourceArn: topic,
      FunctionName: { 'Fn::GetAtt': [alarm, 'Arn'] },
    });
  }, 120_000);

  it('refuses an alert topic that is not an SNS topic ARN, naming the field', () => {
    expect(() => config(`${CONFIG_TEXT}\ndeploy:\n  alertTopics: [amp-alerts]\n`)).toThrow(
      /test\.yaml:\d+: deploy\.alertTopics\.0: an SNS topic ARN/,
    );
  });

  it('refuses a retention CloudWatch Logs does not offer, naming the field', () => {
    expect(() => config(`${CONFIG_TEXT}\ndeploy:\n  logRetentionDays: 10\n`)).toThrow(
      /test\.yaml:\d+: deploy\.logRetentionDays.*one of CloudWatch Logs' retention periods/,
    );
  });
});

describe('regions', () => {
  const EU_CLUSTER = `
clusters:
  - name: prod-eu
    eks: { name: prod-eu, region: eu-west-1 }
  - name: prod-us
    eks: { name: prod-us, region: us-east-1 }
deploy:
  region: us-east-1
`;

  /** Every stack of the app, with the clusters (by EKS name) whose access entries it holds. */
  function accessEntriesByStack(app: App): { region: string; clusters: string[] }[] {
    return app.synth().stacks.map((stack) => ({
      region: stack.environment.region,
      clusters: Object.values(stack.template.Resources as Record<string, Resource>)
        .filter((r) => r.Type === 'AWS::EKS::AccessEntry')
        .map((r) => r.Properties.ClusterName),
    }));
  }

  it('puts the access entry of a cluster in eu-west-1 in eu-west-1 when the stack deploys elsewhere', () => {
    const app = testApp();
    const main = new ResponderStack(app, 'Main', {
      env: { account: '111122223333', region: 'us-east-1' },
      responder: { config: config(EU_CLUSTER), configPath: 'x.yaml' },
    });
    expect(main.region).toBe('us-east-1');
    const stacks = accessEntriesByStack(app);
    expect(stacks).toEqual([
      { region: 'us-east-1', clusters: ['prod-us'] },
      { region: 'eu-west-1', clusters: ['prod-eu'] },
    ]);
    // The entry in eu-west-1 maps the worker role of the main stack, by its name.
    const regional = Template.fromStack(main.regional.get('eu-west-1') as Stack);
    const roleName = Template.fromStack(main).findResources('AWS::IAM::Role');
    const workerRole = Object.values(roleName).find((r) => r.Properties.RoleName)?.Properties.RoleName;
    expect(workerRole).toBeDefined();
    regional.hasResourceProperties('AWS::EKS::AccessEntry', {
      PrincipalArn: Match.objectLike({
        'Fn::Join': ['', Match.arrayWith([`:iam::111122223333:role/${workerRole}`])],
      }),
    });
  });

  it('no template holds an access entry outside its cluster’s region', () => {
    const app = testApp();
    const parsed = config(EU_CLUSTER);
    new ResponderStack(app, 'Main', {
      env: { account: '111122223333', region: 'ap-southeast-2' },
      responder: { config: parsed, configPath: 'x.yaml' },
    });
    const regionOf = new Map(parsed.clusters.map((c) => [c.eks?.name, c.eks?.region]));
    const stacks = accessEntriesByStack(app);
    expect(stacks.flatMap((s) => s.clusters).sort()).toEqual(['prod-eu', 'prod-us']);
    for (const stack of stacks)
      for (const cluster of stack.clusters) expect(stack.region, cluster).toBe(regionOf.get(cluster));
  });

  it("built by a team's own app, refuses a name AWS would refuse, by the config file's line and field", () => {
    const text = `
clusters:
  - name: prod-eu
    eks: { name: prod_eu.cluster, region: eu-west-1 }
`;
    const configPath = join(mkdtempSync(join(tmpdir(), 'responder-names-')), 'responder.config.yaml');
    writeFileSync(configPath, text);
    const stack = new Stack(testApp(), 'Team', { env: { region: 'eu-west-1' } });
    expect(() => new CiliumResponder(stack, 'Responder', { config: config(text), configPath })).toThrow(
      `${configPath}:4: clusters.0.eks.name: EKS cluster name "prod_eu.cluster" is not one EKS allows`,
    );
  });

  it('a stack in another region with nowhere else to put the entry is refused, naming the cluster and both regions', () => {
    const stack = new Stack(testApp(), 'Elsewhere', { env: { region: 'us-east-1' } });
    expect(
      () => new CiliumResponder(stack, 'Responder', { config: config(EU_CLUSTER), configPath: 'x.yaml' }),
    ).toThrow(/cluster "prod-eu": EKS cluster prod-eu is in eu-west-1 but the stack deploys to us-east-1/);
  });

  it('clusters in several regions need the account at synth, and say so', () => {
    expect(
      () =>
        new ResponderStack(testApp(), 'Main', {
          env: { region: 'us-east-1' },
          responder: { config: config(EU_CLUSTER), configPath: 'x.yaml' },
        }),
    ).toThrow(/clusters in eu-west-1 as well as us-east-1: a stack there needs the AWS account/);
  });
});
