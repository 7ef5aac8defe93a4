import { parseAlarmEvent } from '../src/triggers/index.ts';
import { lambdaRuntime } from './runtime.ts';

const { app } = await lambdaRuntime();

/** CloudWatch alarms, from an EventBridge rule, an alarm's Lambda action or an SNS subscription: parse, route, admit, enqueue. */
export const handler = async (event: unknown) => {
  for (const trigger of parseAlarmEvent(event, { receivedAt: new Date() })) await app.dispatch(trigger);
};
