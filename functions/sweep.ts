import { dispatchTrigger } from '../src/routing/dispatch.ts';
import { parseSchedule } from '../src/triggers/index.ts';
import { productionDeps } from './deps.ts';

const deps = await productionDeps();

/** EventBridge Scheduler → the compliance sweep's jobs. */
export const handler = async (event: unknown) => {
  for (const trigger of parseSchedule(event, { receivedAt: new Date() }))
    await dispatchTrigger(trigger, deps.dispatch);
};
