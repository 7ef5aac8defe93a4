import type { RunTrigger } from '../store/types.ts';
import type { Trigger } from '../triggers/types.ts';

/** Alerts a run's record keeps; the rest are counted. */
export const KEPT_ALERTS = 20;
/** Longest label or annotation value kept: an annotation may carry a whole runbook page. */
export const KEPT_VALUE_CHARS = 2_000;

const cut = (text: string) =>
  text.length > KEPT_VALUE_CHARS ? `${text.slice(0, KEPT_VALUE_CHARS)}… (cut)` : text;
const cutAll = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, cut(value)]));

/** What started a run, for its audit record: who, when, and the first alerts with their labels and annotations. */
export function runTrigger(trigger: Trigger): RunTrigger {
  return {
    receivedAt: trigger.receivedAt,
    actor: trigger.actor,
    alerts: trigger.alerts.slice(0, KEPT_ALERTS).map((alert) => ({
      ...alert,
      labels: cutAll(alert.labels),
      annotations: cutAll(alert.annotations),
    })),
    alertCount: trigger.alerts.length,
    ...(trigger.alarm ? { alarm: trigger.alarm } : {}),
    ...(trigger.schedule ? { schedule: trigger.schedule } : {}),
  };
}
