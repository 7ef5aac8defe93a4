export { parseAlertmanager } from './alertmanager.ts';
export { parseCloudWatch } from './cloudwatch.ts';
export { parseAlarmStateChange } from './cloudwatch-eventbridge.ts';
export { parseAlarmLambdaAction } from './cloudwatch-lambda-action.ts';
export { parseLambdaSnsEvent, parseSnsNotification } from './cloudwatch-sns.ts';
export type { EdgeFacts } from './edge.ts';
export { TriggerError } from './errors.ts';
export { parseSchedule } from './schedule.ts';
export type * from './types.ts';
