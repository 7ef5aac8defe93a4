import type { ChatSink } from '../chat/types.ts';
import type { RunStore } from '../store/types.ts';
import type { Trigger } from '../triggers/types.ts';
import type { App } from './app.ts';

/**
 * An Approve or Reject click (in Slack or the console), answered: the decision is dispatched (verified approver, plan not
 * expired, one decision per run), the message's buttons give way to the outcome and who decided,
 * and the clicker alone is told when the click changed nothing. Returns that short answer.
 */
export async function answerApprovalClick(
  trigger: Trigger,
  app: Pick<App, 'dispatch'>,
  ports: { chat: ChatSink; runs: RunStore },
): Promise<string> {
  const approval = trigger.approval;
  if (!approval) throw new Error('not an approval click');
  const who = `<@${trigger.actor.id}>`;
  const result = await app.dispatch(trigger);
  const refusal = result.refused[0];
  const rejected = result.skipped.some((why) => why.endsWith(' rejected'));
  const expired = refusal?.includes(' expired after ');
  const outcome =
    result.queued.length > 0
      ? `Approved by ${who}: running the ${approval.approved.length} approved actions, each re-checked against the cluster first.`
      : rejected
        ? `Rejected by ${who}: nothing was done.`
        : expired
          ? `Expired: ${refusal}`
          : undefined;
  const { channel, threadTs: ts } = trigger.reply ?? {};
  if (outcome) {
    // A decision from the console settles the Slack message too, when the run's report has one.
    if (channel && ts) {
      const record = await ports.runs.get(approval.runId);
      await ports.chat.settleApproval?.({ channel, ts }, record?.report, outcome);
    }
    return outcome;
  }
  const answer = refusal ?? (result.skipped.join('; ') || 'Already handled.');
  if (channel) await ports.chat.tellUser?.(channel, trigger.actor.id, answer);
  return answer;
}
