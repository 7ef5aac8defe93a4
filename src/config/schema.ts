import * as z from 'zod';
import { scheduleExpressionProblem } from './schedule-expression.ts';
import { DEFAULT_SLASH_COMMAND } from './slash-command.ts';

export { DEFAULT_SLASH_COMMAND } from './slash-command.ts';

/**
 * The responder config: which clusters, which alerts run which runbook in which mode, when the
 * compliance sweeps run, the safety limits, and who may approve. See responder.config.example.yaml.
 */

const name = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes');
const modeSchema = z.enum(['dry-run', 'auto', 'approve']);
const stringMap = z.record(z.string(), z.string());

/** Where a cluster's AWS resources are, and the role to reach them with (optional). */
const awsSide = {
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as eu-west-1'),
  roleArn: z
    .string()
    .regex(/^arn:aws[\w-]*:iam::\d{12}:role\/.+$/, 'an IAM role ARN')
    .optional(),
};

/** How the responder reaches one cluster: exactly one of `eks`, `kubeconfig` or `sim`. */
const ClusterSchema = z
  .object({
    name,
    eks: z
      .object({ name: z.string().min(1), ...awsSide })
      .strict()
      .optional(),
    /** A kubeconfig context; without `path`, the default kubeconfig ($KUBECONFIG or ~/.kube/config). */
    kubeconfig: z
      .object({ path: z.string().min(1).optional(), context: z.string().min(1).optional() })
      .strict()
      .optional(),
    sim: z
      .object({ scenarios: z.array(z.string().min(1)).min(1) })
      .strict()
      .optional(),
    ciliumNamespace: z.string().min(1).default('kube-system'),
    /** Chat channel for this cluster's reports. */
    channel: z.string().min(1).optional(),
    /**
     * A kubeconfig cluster's AWS side (an EKS cluster reached through a kubeconfig context): where
     * the EC2 reads go, and the role they use. An `eks` cluster has it already.
     */
    aws: z.object(awsSide).strict().optional(),
    /** Runbook params for this cluster, per runbook id (e.g. `host-identity: { monitorSeconds: 30 }`). */
    params: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  })
  .strict()
  .refine((cluster) => [cluster.eks, cluster.kubeconfig, cluster.sim].filter(Boolean).length === 1, {
    message: 'set exactly one of eks, kubeconfig or sim',
  })
  .refine((cluster) => !cluster.aws || cluster.kubeconfig, {
    message: 'aws belongs with a kubeconfig cluster (an eks cluster has its region and role already)',
    path: ['aws'],
  });

/** What a trigger must carry for a route to take it; every field given must match. */
const MatchSchema = z
  .object({
    source: z.enum(['alertmanager', 'cloudwatch']).optional(),
    /** Alertmanager `alertname` (one or any of several). */
    alertname: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Alert labels that must be present with these values. */
    labels: stringMap.optional(),
    /** CloudWatch alarm name. */
    alarmName: z.string().min(1).optional(),
    /** CloudWatch alarm dimensions that must be present with these values. */
    dimensions: stringMap.optional(),
  })
  .strict();

const RouteSchema = z
  .object({
    match: MatchSchema,
    runbook: z.string().min(1),
    /** The cluster to run on; default: the alert's `cluster` label or the alarm's `ClusterName` dimension. */
    cluster: name.optional(),
    mode: modeSchema.default('dry-run'),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/** EventBridge Scheduler names a schedule `cilium-responder-<name>`, and allows 64 characters. */
export const SCHEDULE_NAME_PREFIX = 'cilium-responder-';
const SCHEDULER_NAME_MAX = 64;

const ScheduleSchema = z
  .object({
    name: name.max(
      SCHEDULER_NAME_MAX - SCHEDULE_NAME_PREFIX.length,
      `at most ${SCHEDULER_NAME_MAX - SCHEDULE_NAME_PREFIX.length} characters: its EventBridge Scheduler schedule, ${SCHEDULE_NAME_PREFIX}<name>, may have ${SCHEDULER_NAME_MAX}`,
    ),
    /** An EventBridge Scheduler expression, e.g. `cron(0 3 * * ? *)` or `rate(1 day)`. */
    expression: z.string().superRefine((expression, ctx) => {
      const problem = scheduleExpressionProblem(expression);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    /** Default: every cluster. */
    clusters: z.array(name).min(1).optional(),
    /** Default: every runbook. */
    runbooks: z.array(z.string().min(1)).min(1).optional(),
    mode: modeSchema.default('dry-run'),
    /** A sweep that finds nothing new and nothing open posts one quiet line, or nothing (`silent`). */
    whenClean: z.enum(['line', 'silent']).default('line'),
  })
  .strict();

const LimitsSchema = z
  .object({
    maxEvictionsPerRun: z.number().int().min(0).default(10),
    maxAgentRestartsPerRun: z.number().int().min(0).default(1),
    /** Pods matching any of these label selectors are never touched (aws-node always is). */
    excludeSelectors: z.array(z.string().min(1)).default([]),
    gracePeriodSeconds: z.number().int().min(0).default(60),
    /** The brake: at most `maxWrites` cluster writes per cluster per window, across every source. */
    brake: z
      .object({
        maxWrites: z.number().int().min(1).default(20),
        windowMinutes: z.number().int().min(1).default(15),
      })
      .strict()
      .default({ maxWrites: 20, windowMinutes: 15 }),
    /** How long the same alert or Slack request is remembered, so it runs once. */
    dedupeMinutes: z
      .number()
      .int()
      .min(10, 'at least 10 minutes: Alertmanager and Slack retry within that')
      .default(15),
    /**
     * A run holds its (cluster, runbook) lease while it renews it, every third of this; a run
     * whose worker died loses it this long after its last renewal.
     */
    leaseSeconds: z.number().int().min(15).default(60),
    /** How long a plan waiting for approval may still be approved; after that it must be made again. */
    approvalMinutes: z.number().int().min(1).default(30),
  })
  .strict();

/** The Slack app's side of the config: the slash command's name, as the app's manifest declares it. */
const SlackSchema = z
  .object({
    command: z
      .string()
      .regex(/^\/[a-z0-9][a-z0-9_-]*$/, 'a slash command such as /cilium')
      .default(DEFAULT_SLASH_COMMAND),
    /**
     * The workspace's team id (`T…`, in Slack's About this workspace): Sign in with Slack admits
     * only its members. Without it the console signs no one in with Slack.
     */
    teamId: z
      .string()
      .regex(/^[TE][A-Z0-9]{2,}$/, 'a Slack team id such as T0123ABCD (About this workspace)')
      .optional(),
  })
  .strict();

/** The retention periods CloudWatch Logs accepts, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

/** How the stack is deployed (read by the CDK app only; the functions ignore it). */
const DeploySchema = z
  .object({
    /** The stack's region; default: the region of the same-account EKS clusters. */
    region: awsSide.region.optional(),
    /** An address the alarm topic mails (it must confirm the subscription). */
    alarmEmail: z.email('an email address').optional(),
    /**
     * Existing SNS topics whose messages the alarm function reads: CloudWatch alarm notifications,
     * or Amazon Managed Prometheus alert groups (AMP's alert manager can only send to SNS).
     */
    alertTopics: z
      .array(
        z
          .string()
          .regex(
            /^arn:aws[a-z-]*:sns:[a-z]{2}(-[a-z]+)+-\d+:\d{12}:[A-Za-z0-9_-]{1,256}$/,
            'an SNS topic ARN: arn:aws:sns:<region>:<account>:<topic> (a standard topic)',
          ),
      )
      .default([]),
    logRetentionDays: z
      .number()
      .int()
      .refine((days) => (LOG_RETENTION_DAYS as readonly number[]).includes(days), {
        message: `one of CloudWatch Logs' retention periods: ${LOG_RETENTION_DAYS.join(', ')}`,
      })
      .default(30),
    /** Reserved concurrency per function; 0 leaves it unreserved (for accounts with a low quota). */
    reservedConcurrency: z
      .object({
        http: z.number().int().min(0).default(10),
        worker: z.number().int().min(0).default(5),
      })
      .strict()
      .default({ http: 10, worker: 5 }),
  })
  .strict();

/** The responder config's schema (responder.config.yaml), as `responder validate` checks it. */
export const ConfigSchema = z
  .object({
    clusters: z.array(ClusterSchema).min(1),
    routes: z.array(RouteSchema).default([]),
    schedules: z.array(ScheduleSchema).default([]),
    limits: LimitsSchema.default(LimitsSchema.parse({})),
    /** Slack user (U…) or user-group (S…) ids allowed to approve, per runbook id or `*`. */
    approvers: z
      .record(z.string(), z.array(z.string().regex(/^[US][A-Z0-9]+$/, 'a Slack user (U…) or group (S…) id')))
      .default({}),
    slack: SlackSchema.default({ command: DEFAULT_SLASH_COMMAND }),
    // Optional in the type too: configs built in code (the CLI's, the tests') need not carry it.
    deploy: DeploySchema.optional(),
    /**
     * A team's own runbooks, written on cilium-responder/sdk: paths relative to this file
     * (`./runbooks/kube-proxy-coexistence/index.ts`) or package names, each exporting one runbook.
     */
    runbooks: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .superRefine((config, ctx) => {
    const names = config.clusters.map((c) => c.name);
    names.forEach((cluster, index) => {
      if (names.indexOf(cluster) !== index) {
        ctx.addIssue({
          code: 'custom',
          message: `cluster name "${cluster}" is used twice`,
          path: ['clusters', index, 'name'],
        });
      }
    });
    // One name per EKS cluster: the lease and the brake are kept per name, so two names would let
    // two runs act on one cluster at once, each with a full brake.
    const eksClusters = new Map<string, string>();
    config.clusters.forEach((cluster, index) => {
      if (!cluster.eks) return;
      const account = cluster.eks.roleArn?.split(':')[4] ?? 'own';
      const key = `${account}|${cluster.eks.region}|${cluster.eks.name}`;
      const first = eksClusters.get(key);
      if (first === undefined) {
        eksClusters.set(key, cluster.name);
        return;
      }
      ctx.addIssue({
        code: 'custom',
        message: `EKS cluster ${cluster.eks.name} in ${cluster.eks.region} is cluster "${first}" already: give each EKS cluster one name, so its lease and brake are one`,
        path: ['clusters', index, 'eks', 'name'],
      });
    });
    const known = new Set(names);
    config.routes.forEach((route, index) => {
      if (route.cluster && !known.has(route.cluster)) {
        ctx.addIssue({
          code: 'custom',
          message: `no cluster named "${route.cluster}"`,
          path: ['routes', index, 'cluster'],
        });
      }
    });
    config.schedules.forEach((schedule, index) => {
      schedule.clusters?.forEach((cluster, i) => {
        if (!known.has(cluster)) {
          ctx.addIssue({
            code: 'custom',
            message: `no cluster named "${cluster}"`,
            path: ['schedules', index, 'clusters', i],
          });
        }
      });
    });
  });

export type ClusterConfig = z.infer<typeof ClusterSchema>;

/** The limits every key of which is left out: the defaults. */
export const DEFAULT_LIMITS_CONFIG = LimitsSchema.parse({});
export type RouteConfig = z.infer<typeof RouteSchema>;
export type ScheduleConfig = z.infer<typeof ScheduleSchema>;
export type LimitsConfig = z.infer<typeof LimitsSchema>;
export type DeployConfig = z.infer<typeof DeploySchema>;

/** The config's deploy settings, defaults filled in when the key is left out. */
export function deployOf(config: ResponderConfig): DeployConfig {
  return config.deploy ?? DeploySchema.parse({});
}
/** A responder config, as its schema parsed it (defaults filled in). */
export type ResponderConfig = z.infer<typeof ConfigSchema>;
