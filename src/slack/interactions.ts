import * as z from 'zod';
import { deliveryKey } from '../triggers/delivery-key.ts';
import type { EdgeFacts } from '../triggers/edge.ts';
import type { Trigger } from '../triggers/types.ts';
import { HttpsUrl, NonEmpty, parseJsonField, parseWith } from '../triggers/validate.ts';
import { APPROVAL_ACTION_IDS } from './action-ids.ts';
import { ApprovalValueSchema } from './approval-value.ts';

/** The interactivity request: one form field, `payload`, holding JSON. */
const InteractionForm = z.lazy(() => z.object({ payload: z.string() }));

const ButtonAction = z.lazy(() =>
  z.object({
    action_id: z.enum(APPROVAL_ACTION_IDS),
    value: z.string(),
    action_ts: NonEmpty,
  }),
);

/** Slack's block_actions payload, the fields an approval needs. A button press sends one action. */
export const BlockActionsSchema = z.lazy(() =>
  z.object({
    type: z.literal('block_actions'),
    user: z.object({ id: NonEmpty, username: z.string().optional() }),
    // Messages in channels carry both; the container is the fallback for the channel.
    channel: z.object({ id: NonEmpty }).optional(),
    container: z.object({ channel_id: z.string().optional(), message_ts: z.string().optional() }),
    message: z.object({ ts: NonEmpty }).optional(),
    response_url: HttpsUrl.optional(),
    actions: z.tuple([ButtonAction], ButtonAction),
  }),
);

/**
 * An approve/reject button press → a Trigger with `approval`. The deliveryKey is (action_ts,
 * action_id, runId): a retry of the same press shares it, but a double click is two presses with
 * two action_ts values; one resume per run is admission's job, keyed on the runId.
 */
export function parseBlockActions(form: unknown, edge: EdgeFacts): Trigger {
  const { payload: json } = parseWith(InteractionForm, form);
  const payload = parseWith(BlockActionsSchema, parseJsonField(json, 'payload'), 'payload');
  const [action] = payload.actions;
  const valueField = 'payload.actions[0].value';
  const value = parseWith(ApprovalValueSchema, parseJsonField(action.value, valueField), valueField);
  return {
    source: 'slack-action',
    receivedAt: edge.receivedAt.toISOString(),
    deliveryKey: deliveryKey('slack-action', [action.action_ts, action.action_id, value.runId]),
    alerts: [],
    actor: { kind: 'user', id: payload.user.id, name: payload.user.username },
    reply: {
      channel: payload.channel?.id ?? payload.container.channel_id,
      threadTs: payload.message?.ts ?? payload.container.message_ts,
      responseUrl: payload.response_url,
    },
    // A rejection approves nothing, whatever the button carried.
    approval: {
      runId: value.runId,
      decision: action.action_id,
      approved: action.action_id === 'approve' ? value.approved : [],
    },
  };
}
