import { parseAlarmEvent } from '../src/triggers/index.ts';
import { lambdaRuntime } from './runtime.ts';

const { app } = await lambdaRuntime();

/** CloudWatch alarms, from an EventBridge rule, an alarm's Lambda action or an SNS subscription: parse, route, admit, enqueue. */
export const handler = async (event: unknown) => {
  for (const trigger of parseAlarmEvent(event, { receivedAt: new Date() })) {
    const { skipped } = await app.dispatch(trigger);
    // An alarm has no sender to answer: what came to nothing, and why, goes to the function's log.
    if (skipped.length > 0)
      app.ports.log.warn('alarm matched no route or cluster', {
        alarm: trigger.alarm?.name ?? trigger.alerts.map((alert) => alert.name).join(', '),
        skipped,
      });
  }
};
