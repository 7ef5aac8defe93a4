import type { Approval } from '../triggers/types.ts';

/** The action_id of our approval buttons (see src/chat/blocks.ts); block_actions with any other id are not ours. */
export const APPROVAL_ACTION_IDS = ['approve', 'reject'] as const satisfies readonly Approval['decision'][];
