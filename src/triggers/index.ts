export { parseAlarmEvent } from './alarm-event.ts';
export { parseAlertmanager } from './alertmanager.ts';
export { parseAlarmStateChange } from './cloudwatch-eventbridge.ts';
export { parseAlarmLambdaAction } from './cloudwatch-lambda-action.ts';
export type { EdgeFacts } from './edge.ts';
export { TriggerError } from './errors.ts';
export { parseSchedule } from './schedule.ts';
export { parseLambdaSnsEvent, parseSnsNotification } from './sns.ts';
export type * from './types.ts';
