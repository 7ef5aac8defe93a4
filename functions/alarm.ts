import { dispatchTrigger } from '../src/routing/dispatch.ts';
import { parseCloudWatch } from '../src/triggers/index.ts';
import { productionDeps } from './deps.ts';

const deps = await productionDeps();

/** CloudWatch alarms, from an EventBridge rule or an SNS subscription: parse, route, admit, enqueue. */
export const handler = async (event: unknown) => {
  const triggers = parseCloudWatch(event, { receivedAt: new Date() });
  for (const trigger of triggers) await dispatchTrigger(trigger, deps.dispatch);
};
