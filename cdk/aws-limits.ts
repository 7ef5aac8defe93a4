import type { ConfigProblem } from '../src/config/load.ts';
import type { ResponderConfig } from '../src/config/schema.ts';

/**
 * The names the stack takes from the config, checked against AWS's limits at synth, so a deploy
 * does not fail halfway (or CloudFormation roll back) on one. The stack names nothing else itself:
 * its functions, queues, table, secrets, topic and roles get names CloudFormation generates within
 * the limits; schedule names are checked by the config's schema (cilium-responder-<name>, 64).
 */

/** EKS CreateCluster: 1-100 characters, a letter or digit first, then letters, digits, - and _. */
const EKS_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/;
/** IAM: a role's name is at most 64 characters of letters, digits and +=,.@_- */
const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
/** CloudWatch PutMetricAlarm: an alarm name has at most 255 characters. */
const ALARM_NAME_MAX = 255;
/** EventBridge: an event pattern has at most 2,048 characters (the default quota). */
const EVENT_PATTERN_MAX = 2048;

/** The EventBridge pattern of the alarm rule: the construct's rule and the size check read this one. */
export function alarmEventPattern(alarmNames: readonly string[]) {
  return {
    source: ['aws.cloudwatch'],
    detailType: ['CloudWatch Alarm State Change'],
    detail: { alarmName: [...alarmNames], state: { value: ['ALARM'] } },
  };
}

/** The pattern as EventBridge counts it: JSON, with CloudFormation's `detail-type` key. */
function patternLength(alarmNames: readonly string[]): number {
  const { detailType, ...rest } = alarmEventPattern(alarmNames);
  return JSON.stringify({ ...rest, 'detail-type': detailType }).length;
}

function roleProblem(roleArn: string | undefined, path: (string | number)[]): ConfigProblem[] {
  const name = roleArn?.split('/').pop();
  if (name === undefined || ROLE_NAME.test(name)) return [];
  return [
    {
      path,
      message: `role name "${name}" is ${name.length} characters; IAM allows at most 64 letters, digits and +=,.@_-`,
    },
  ];
}

export function awsNameProblems(config: ResponderConfig): ConfigProblem[] {
  const clusters = config.clusters.flatMap((cluster, index) => [
    ...(cluster.eks && !EKS_NAME.test(cluster.eks.name)
      ? [
          {
            path: ['clusters', index, 'eks', 'name'],
            message: `EKS cluster name "${cluster.eks.name}" is not one EKS allows: 1 to 100 letters, digits, - and _, starting with a letter or digit`,
          },
        ]
      : []),
    ...roleProblem(cluster.eks?.roleArn, ['clusters', index, 'eks', 'roleArn']),
    ...roleProblem(cluster.aws?.roleArn, ['clusters', index, 'aws', 'roleArn']),
  ]);
  const alarms: ConfigProblem[] = [];
  const named: string[] = [];
  config.routes.forEach((route, index) => {
    const alarmName = route.match.alarmName;
    if (alarmName === undefined) return;
    const path = ['routes', index, 'match', 'alarmName'];
    if (alarmName.length > ALARM_NAME_MAX)
      alarms.push({
        path,
        message: `alarm name is ${alarmName.length} characters; CloudWatch allows at most ${ALARM_NAME_MAX}`,
      });
    named.push(alarmName);
    // Said once, at the route that takes the rule past its limit.
    const length = patternLength(named);
    if (length > EVENT_PATTERN_MAX && patternLength(named.slice(0, -1)) <= EVENT_PATTERN_MAX)
      alarms.push({
        path,
        message: `with this alarm the EventBridge rule for the routes' alarm names would be ${length} characters; an event pattern may have ${EVENT_PATTERN_MAX}: route fewer alarms by name (match them by dimensions instead)`,
      });
  });
  return [...clusters, ...alarms];
}
