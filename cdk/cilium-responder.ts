import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Arn, ArnFormat, Duration, PhysicalName, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IVpc } from 'aws-cdk-lib/aws-ec2';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  FunctionUrlAuthType,
  Function as LambdaFn,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type RunbookSet, runbookInfo } from '../runbooks/team.ts';
import { TEAM_CATALOG_ENV, teamCatalogJson } from '../runbooks/team-catalog.ts';
import { CONSOLE_URL_ENV } from '../src/chat/console-link.ts';
import { DEPLOYED_CONFIG_FILE } from '../src/config/deployed.ts';
import { deployedConfigText } from '../src/config/deployed-text.ts';
import { parseConfig } from '../src/config/load.ts';
import { deployOf, type ResponderConfig, SCHEDULE_NAME_PREFIX } from '../src/config/schema.ts';
import { RUN_INDEXES, TTL_ATTRIBUTE } from '../src/store/dynamodb/layout.ts';
import { addAccessEntries, type RegionScope, sameAccountClusters } from './access-entries.ts';
import { ALARM_PERIOD, AlarmTopic } from './alarm-topic.ts';
import { alarmEventPattern, awsNameProblems } from './aws-limits.ts';
import { functionCode, SOURCE_MAPPED } from './bundling.ts';
import { addOutputs } from './outputs.ts';
import { packageRoot } from './package-root.ts';
import { rbacManifest } from './rbac.ts';
import { type FunctionName, grantTableOperations } from './table-grants.ts';
import { teamWorkerEntry } from './team-worker.ts';

/** What {@link CiliumResponder} is built from: the config, and where the stack meets the account. */
export interface CiliumResponderProps {
  /** The responder config, validated (clusters, routes, schedules, limits, approvers, deploy). */
  config: ResponderConfig;
  /** The config file (its problems are said at its lines); the functions get `config`, as JSON. */
  configPath: string;
  /** An SNS topic CloudWatch alarms notify, to subscribe the alarm function to. */
  alarmTopic?: ITopic;
  /**
   * More SNS topics to subscribe the alarm function to: CloudWatch alarm notifications, or AMP
   * alert groups. Added to the config's `deploy.alertTopics`.
   */
  alertTopics?: ITopic[];
  /** Where the responder's own alarms are mailed; wins over the config's `deploy.alarmEmail`. */
  alarmEmail?: string;
  /** Deliveries before a job goes to the dead-letter queue. Default 3. */
  maxAttempts?: number;
  /** The channel for clusters that name none. */
  defaultChannel?: string;
  /** A VPC to run the worker in, for clusters whose API endpoint is private. */
  vpc?: IVpc;
  /**
   * The runbooks the config can run, from `loadConfigWithRunbooks`: a team's own are bundled into
   * the worker and listed to the other functions for routing and the Slack commands.
   * @defaultValue the built-in runbooks only
   */
  runbooks?: RunbookSet;
  /** A scope in another region, for the access entries of same-account clusters there. */
  accessEntriesElsewhere?: RegionScope;
}

const ROOT = packageRoot();
/** A run's time budget is 5 minutes (the engine's default); the worker gets a margin over it. */
const WORKER_TIMEOUT = Duration.minutes(6);
/** Retries of an event target before the event goes to the events' dead-letter queue. */
const EVENT_RETRIES = { attempts: 2, maxAge: Duration.hours(1) };

/**
 * Cilium Responder as one construct: the four functions with their log groups, the table, the
 * queue and its DLQ, the secrets, the triggers (Function URL, CloudWatch alarm rule and SNS,
 * Scheduler) with a DLQ for events that could not be delivered, alarms on an SNS topic,
 * least-privilege access in AWS and, through EKS access entries, in each cluster, and the stack
 * Outputs the post-deploy steps read (cdk/outputs.ts).
 */
export class CiliumResponder extends Construct {
  /** The DynamoDB table of runs, findings, the brake and leases. */
  readonly table: Table;
  /** The SQS queue of admitted jobs, which the worker runs. */
  readonly queue: Queue;
  /** Jobs the worker gave up on, for a person to look at. */
  readonly deadLetterQueue: Queue;
  /** Events EventBridge or Scheduler could not deliver to the alarm or sweep function. */
  readonly eventDeadLetters: Queue;
  /** Slack fields (empty until put) and the generated alertmanagerToken. */
  readonly secret: Secret;
  /** The generated operatorToken: only the http function reads it. */
  readonly operatorSecret: Secret;
  /** Where the responder's own alarms go. */
  readonly alarmTopic: AlarmTopic;
  /** Alertmanager webhooks, Slack commands and clicks, the operator API (a Function URL). */
  readonly http: LambdaFn;
  /** CloudWatch alarms, through EventBridge, SNS or the alarm's Lambda action. */
  readonly alarm: LambdaFn;
  /** The config's schedules. */
  readonly sweep: LambdaFn;
  /** Runs the queued jobs against the clusters. */
  readonly worker: LambdaFn;
  /** The http function's URL: where Alertmanager and Slack send. */
  readonly url: string;
  /** The Kubernetes RBAC for the worker's group (`responder rbac`), with the team runbooks' declared reads. */
  readonly rbac: string;

  constructor(scope: Construct, id: string, props: CiliumResponderProps) {
    super(scope, id);
    // A team's app builds the construct from its own config: its AWS names are checked here too,
    // said by the file's line and field.
    if (awsNameProblems(props.config).length > 0)
      parseConfig(readFileSync(props.configPath, 'utf8'), props.configPath, { checks: awsNameProblems });
    const maxAttempts = props.maxAttempts ?? 3;
    const deploy = deployOf(props.config);
    const team = props.runbooks?.team ?? [];
    this.rbac = rbacManifest('kube-system', props.runbooks?.permissions ?? []);
    this.table = new Table(this, 'State', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of RUN_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'Jobs', {
      // Above the worker's timeout, so a job is not delivered again while it still runs.
      visibilityTimeout: WORKER_TIMEOUT.plus(Duration.minutes(1)),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: maxAttempts },
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    this.eventDeadLetters = new Queue(this, 'EventDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    // CloudFormation generates one key per secret (GenerateSecretString has one generateStringKey),
    // so each generated token has its own secret; the Slack fields start empty beside the first.
    // The console's slackClientId and slackClientSecret are put beside them, not templated: a changed
    // template would generate the secret anew, losing the fields already put.
    this.secret = new Secret(this, 'Secrets', {
      description:
        'Cilium Responder: put slackSigningSecret, slackBotToken, slackClientId, slackClientSecret; alertmanagerToken is generated',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ slackSigningSecret: '', slackBotToken: '' }),
        generateStringKey: 'alertmanagerToken',
        excludePunctuation: true,
        passwordLength: 48,
      },
    });
    this.operatorSecret = new Secret(this, 'OperatorToken', {
      description: 'Cilium Responder: the generated operatorToken (audit trail, brake reset)',
      generateSecretString: {
        secretStringTemplate: '{}',
        generateStringKey: 'operatorToken',
        excludePunctuation: true,
        passwordLength: 48,
      },
    });

    const deployedConfig = join(mkdtempSync(join(tmpdir(), 'responder-config-')), DEPLOYED_CONFIG_FILE);
    writeFileSync(deployedConfig, deployedConfigText(props.config, 'CiliumResponder config'));
    const environment = {
      TABLE_NAME: this.table.tableName,
      QUEUE_URL: this.queue.queueUrl,
      DEAD_LETTER_QUEUE_URL: this.deadLetterQueue.queueUrl,
      SECRETS_ID: this.secret.secretArn,
      RESPONDER_CONFIG: `./${DEPLOYED_CONFIG_FILE}`,
      MAX_ATTEMPTS: String(maxAttempts),
      DEFAULT_CHANNEL: props.defaultChannel ?? '#cilium-responder',
      POWERTOOLS_SERVICE_NAME: 'cilium-responder',
      // Routing and the Slack commands in every function know the team's runbooks by id.
      ...(team.length > 0
        ? { [TEAM_CATALOG_ENV]: teamCatalogJson(team.map((t) => runbookInfo(t.runbook))) }
        : {}),
    };
    const fn = (
      name: FunctionName,
      options: {
        memorySize: number;
        timeout: Duration;
        reservedConcurrency: number;
        vpc?: IVpc;
        role?: Role;
        environment?: Record<string, string>;
        sourceMapped?: boolean;
        entry?: string;
      },
    ) =>
      new LambdaFn(this, name, {
        code: functionCode({
          entry: options.entry ?? `${ROOT}/functions/${name.toLowerCase()}.ts`,
          // The config travels with the code, validated and as JSON; the functions read it at cold start.
          besides: [{ file: deployedConfig, as: DEPLOYED_CONFIG_FILE }],
          sourcemap: options.sourceMapped ?? false,
          projectDir: process.cwd(),
        }),
        handler: 'index.handler',
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: options.memorySize,
        timeout: options.timeout,
        tracing: Tracing.ACTIVE,
        environment: {
          ...environment,
          ...options.environment,
          ...(options.sourceMapped ? SOURCE_MAPPED.environment : {}),
        },
        // Its own log group, so the logs expire and go with the stack.
        logGroup: new LogGroup(this, `${name}Logs`, {
          retention: deploy.logRetentionDays as RetentionDays,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
        // 0 leaves the function unreserved (accounts with a low concurrency quota).
        ...(options.reservedConcurrency > 0
          ? { reservedConcurrentExecutions: options.reservedConcurrency }
          : {}),
        ...(options.vpc ? { vpc: options.vpc } : {}),
        ...(options.role ? { role: options.role } : {}),
      });

    // Sized from `npm run bench`: the admitting functions hold about 65 MiB after their cold start
    // (256 MB leaves them four times that); the worker peaked at 300 MiB scanning 165,000 pods and
    // 460 MiB fanning out over 5,000 agents (1024 MB leaves room, and more CPU for the fan-out).
    // The http function is public: its reserved concurrency is also its throttle.
    this.http = fn('Http', {
      memorySize: 256,
      timeout: Duration.seconds(10),
      reservedConcurrency: deploy.reservedConcurrency.http,
      environment: { OPERATOR_SECRET_ID: this.operatorSecret.secretArn },
    });
    this.alarm = fn('Alarm', { memorySize: 256, timeout: Duration.seconds(30), reservedConcurrency: 0 });
    this.sweep = fn('Sweep', { memorySize: 256, timeout: Duration.seconds(30), reservedConcurrency: 0 });
    this.worker = fn('Worker', {
      // One full vCPU: the cgroup check's fan-out is CPU-bound at about 1.0-1.4 CPUs (README, Sizing the worker).
      memorySize: 1769,
      timeout: WORKER_TIMEOUT,
      // So an alert storm cannot take the account's concurrency.
      reservedConcurrency: deploy.reservedConcurrency.worker,
      ...(team.length > 0 ? { entry: teamWorkerEntry(ROOT, team, process.cwd()) } : {}),
      ...(props.vpc ? { vpc: props.vpc } : {}),
      role: this.workerRole(props.vpc),
      sourceMapped: true,
    });

    // Slack and Alertmanager call it; the signature and bearer checks happen in code.
    this.url = this.http.addFunctionUrl({ authType: FunctionUrlAuthType.NONE }).url;
    // The worker posts the reports: each ends with its run's page in the console (/ui on this URL).
    this.worker.addEnvironment(CONSOLE_URL_ENV, this.url);

    for (const [name, admitting] of [
      ['Http', this.http],
      ['Alarm', this.alarm],
      ['Sweep', this.sweep],
    ] as const) {
      grantTableOperations(this.table, admitting, name);
      this.queue.grantSendMessages(admitting);
      this.secret.grantRead(admitting);
    }
    this.operatorSecret.grantRead(this.http);
    // Each function reads its secrets in one BatchGetSecretValue at its cold start (functions/runtime.ts):
    // the action takes no resource; each secret it returns still needs GetSecretValue on that secret.
    for (const fn of [this.http, this.alarm, this.sweep, this.worker])
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['secretsmanager:BatchGetSecretValue'], resources: ['*'] }),
      );
    grantTableOperations(this.table, this.worker, 'Worker');
    this.deadLetterQueue.grantSendMessages(this.worker);
    this.secret.grantRead(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 5, reportBatchItemFailures: true }),
    );
    this.grantClusterAccess(props.config, props.accessEntriesElsewhere);

    const alarmNames = props.config.routes.flatMap((route) =>
      route.match.alarmName ? [route.match.alarmName] : [],
    );
    if (alarmNames.length > 0) {
      new Rule(this, 'AlarmStateChange', {
        eventPattern: alarmEventPattern(alarmNames),
        targets: [
          new LambdaFunction(this.alarm, {
            retryAttempts: EVENT_RETRIES.attempts,
            maxEventAge: EVENT_RETRIES.maxAge,
            deadLetterQueue: this.eventDeadLetters,
          }),
        ],
      });
    }
    // The same alarms may invoke the function directly (the alarm's Lambda action).
    for (const [index, alarmName] of alarmNames.entries())
      this.alarm.addPermission(`AlarmAction${index}`, {
        principal: new ServicePrincipal('lambda.alarms.cloudwatch.amazonaws.com'),
        sourceAccount: Stack.of(this).account,
        sourceArn: Stack.of(this).formatArn({
          service: 'cloudwatch',
          resource: 'alarm',
          resourceName: alarmName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      });
    const alertTopics = [
      ...(props.alarmTopic ? [props.alarmTopic] : []),
      ...(props.alertTopics ?? []),
      ...deploy.alertTopics.map((arn, index) => Topic.fromTopicArn(this, `AlertTopic${index}`, arn)),
    ];
    for (const topic of alertTopics) topic.addSubscription(new LambdaSubscription(this.alarm));

    this.schedules(props.config);
    const email = props.alarmEmail ?? deploy.alarmEmail;
    this.alarmTopic = new AlarmTopic(this, 'Alarms', email ? { email } : {});
    this.alarms();
    addOutputs(this, {
      url: this.url,
      secret: this.secret,
      operatorSecret: this.operatorSecret,
      alarmTopic: this.alarmTopic.topic,
      workerRole: this.worker.role,
    });
  }

  /**
   * The worker's role, named at synth only if a stack in another region refers to it (an access
   * entry there): IAM is global, but CloudFormation cannot pass a reference between regions.
   */
  private workerRole(vpc: IVpc | undefined): Role {
    const managed = ['service-role/AWSLambdaBasicExecutionRole'];
    // What Lambda adds to a role it creates for a function in a VPC.
    if (vpc) managed.push('service-role/AWSLambdaVPCAccessExecutionRole');
    return new Role(this, 'WorkerRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      roleName: PhysicalName.GENERATE_IF_NEEDED,
      managedPolicies: managed.map((name) => ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
  }

  /**
   * eks:DescribeCluster only on the configured EKS clusters, sts:AssumeRole only on their roles, the
   * EC2 describe calls the tunnel runbook makes (EC2 allows no resource scoping for them), and an
   * EKS access entry per cluster in this account, in the cluster's region, mapping the worker to
   * the responder's group.
   */
  private grantClusterAccess(config: ResponderConfig, elsewhere: RegionScope | undefined): void {
    const stack = Stack.of(this);
    const eksClusters = config.clusters.flatMap((cluster) => (cluster.eks ? [cluster.eks] : []));
    const roles = [
      ...eksClusters.flatMap((eks) => (eks.roleArn ? [eks.roleArn] : [])),
      ...config.clusters.flatMap((cluster) => (cluster.aws?.roleArn ? [cluster.aws.roleArn] : [])),
    ];
    const direct = eksClusters.filter((eks) => !eks.roleArn);
    if (direct.length > 0) {
      this.worker.addToRolePolicy(
        new PolicyStatement({
          actions: ['eks:DescribeCluster'],
          resources: direct.map((eks) =>
            Arn.format(
              { service: 'eks', region: eks.region, resource: 'cluster', resourceName: eks.name },
              stack,
            ),
          ),
        }),
      );
      this.worker.addToRolePolicy(
        new PolicyStatement({
          actions: ['ec2:DescribeInstances', 'ec2:DescribeSecurityGroups'],
          resources: ['*'],
        }),
      );
    }
    if (roles.length > 0)
      this.worker.addToRolePolicy(
        new PolicyStatement({ actions: ['sts:AssumeRole'], resources: [...new Set(roles)] }),
      );
    addAccessEntries(this, sameAccountClusters(config), (this.worker.role as Role).roleArn, elsewhere);
  }

  /** One EventBridge Scheduler schedule per configured sweep, with bounded retries and event age. */
  private schedules(config: ResponderConfig): void {
    if (config.schedules.length === 0) return;
    const invoker = new Role(this, 'SchedulerInvoker', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    });
    this.sweep.grantInvoke(invoker);
    this.eventDeadLetters.grantSendMessages(invoker);
    for (const schedule of config.schedules) {
      new CfnSchedule(this, `Schedule-${schedule.name}`, {
        name: `${SCHEDULE_NAME_PREFIX}${schedule.name}`,
        scheduleExpression: schedule.expression,
        flexibleTimeWindow: { mode: 'OFF' },
        target: {
          arn: this.sweep.functionArn,
          roleArn: invoker.roleArn,
          // What the sweep function reads: the schedule's name and when it fired.
          input: JSON.stringify({ schedule: schedule.name, scheduledTime: '<aws.scheduler.scheduled-time>' }),
          retryPolicy: {
            maximumRetryAttempts: EVENT_RETRIES.attempts,
            maximumEventAgeInSeconds: EVENT_RETRIES.maxAge.toSeconds(),
          },
          deadLetterConfig: { arn: this.eventDeadLetters.queueArn },
        },
      });
    }
  }

  /**
   * What can go wrong, said before anyone asks, on the alarm topic: dead letters (jobs, events),
   * errors of any function, the public http function throttled, the brake tripping.
   */
  private alarms(): void {
    const on = this.alarmTopic;
    on.alarm(
      this,
      'BrakeTripped',
      new Metric({
        namespace: 'CiliumResponder',
        metricName: 'BrakeTrips',
        dimensionsMap: { service: 'cilium-responder' },
        statistic: 'Sum',
        period: ALARM_PERIOD,
      }),
      'The brake held cluster writes back: something is writing more than the limit allows.',
    );
    on.alarm(
      this,
      'RequestsTooLarge',
      new Metric({
        namespace: 'CiliumResponder',
        metricName: 'RequestsTooLarge',
        dimensionsMap: { service: 'cilium-responder' },
        statistic: 'Sum',
        period: ALARM_PERIOD,
      }),
      'The http function refused a request body over 6 MiB (413): an alert group that large is lost; split it with group_by.',
    );
    on.alarm(
      this,
      'DeadLettersWaiting',
      this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD }),
      'A responder job failed every attempt; its reason is on the dead-letter queue.',
    );
    on.alarm(
      this,
      'EventDeadLettersWaiting',
      this.eventDeadLetters.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD }),
      'EventBridge or Scheduler could not deliver an alarm or sweep event; it is on the events dead-letter queue.',
    );
    for (const [name, fn] of [
      ['Http', this.http],
      ['Alarm', this.alarm],
      ['Sweep', this.sweep],
      ['Worker', this.worker],
    ] as const)
      on.alarm(
        this,
        `${name}Errors`,
        fn.metricErrors({ period: ALARM_PERIOD }),
        `The responder's ${name.toLowerCase()} function failed; see its log group.`,
      );
    on.alarm(
      this,
      'HttpThrottled',
      this.http.metricThrottles({ period: ALARM_PERIOD }),
      'The http function hit its reserved concurrency: Slack or Alertmanager requests were refused (429).',
    );
  }
}
