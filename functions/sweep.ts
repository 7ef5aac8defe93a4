import { parseSchedule } from '../src/triggers/index.ts';
import { lambdaRuntime } from './runtime.ts';

const { app } = await lambdaRuntime();

/** EventBridge Scheduler → the compliance sweep's jobs. */
export const handler = async (event: unknown) => {
  for (const trigger of parseSchedule(event, { receivedAt: new Date() })) await app.dispatch(trigger);
};
