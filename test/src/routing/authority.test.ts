import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Mode } from '../../../src/engine/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import { refusal } from '../../../src/routing/authority.ts';
import type { Trigger } from '../../../src/triggers/types.ts';
import {
  alert,
  alertmanagerTrigger,
  approvalTrigger,
  scheduleTrigger,
  slackCommand,
  testConfig,
} from './fixtures.ts';

const APPROVER = 'U012AB3CD';
const BYSTANDER = 'U0BYSTANDER';
const config = testConfig();

function job(trigger: Trigger, mode: Mode, options: { runbook?: string; resume?: boolean } = {}): Job {
  return {
    id: 'job-1',
    runbook: options.runbook ?? 'unmanaged-pods',
    cluster: 'prod-eu',
    mode,
    params: {},
    trigger,
    dedupeKey: 'key-1',
    ...(options.resume ? { resume: { runId: 'run-1', approved: ['evict-pod:shop/web-1'] } } : {}),
  };
}

const commandBy = (user: string): Trigger => ({
  ...slackCommand({ cluster: 'prod-eu', runbook: 'unmanaged-pods' }),
  actor: { kind: 'user', id: user },
});
const clickBy = (user: string) =>
  approvalTrigger(user, { runId: 'run-1', decision: 'approve', approved: ['evict-pod:shop/web-1'] });
const notApprover = (runbook = 'unmanaged-pods') =>
  `<@${BYSTANDER}> is not an approver of ${runbook}: a run that changes the cluster needs one (approvers.${runbook} or approvers."*" in the config)`;

describe('refusal: who may start a run that writes', () => {
  it('lets anyone in Slack ask for a plan: a dry run, or an approve run before its approval', async () => {
    expect(await refusal(job(commandBy(BYSTANDER), 'dry-run'), { config })).toBeUndefined();
    expect(await refusal(job(commandBy(BYSTANDER), 'approve'), { config })).toBeUndefined();
  });

  it('refuses a Slack user who is not an approver an auto run, or the resume of an approved plan', async () => {
    expect(await refusal(job(commandBy(BYSTANDER), 'auto'), { config })).toBe(notApprover());
    expect(await refusal(job(clickBy(BYSTANDER), 'approve', { resume: true }), { config })).toBe(
      notApprover(),
    );
    expect(await refusal(job(clickBy(BYSTANDER), 'auto'), { config })).toBe(notApprover());
  });

  it('lets an approver run it', async () => {
    expect(await refusal(job(commandBy(APPROVER), 'auto'), { config })).toBeUndefined();
    expect(await refusal(job(clickBy(APPROVER), 'approve', { resume: true }), { config })).toBeUndefined();
  });

  it('takes the authority of alerts, schedules and the CLI from the config and the terminal', async () => {
    const alertJob = job(alertmanagerTrigger([alert('CiliumUnmanagedPods')]), 'auto');
    expect(await refusal(alertJob, { config })).toBeUndefined();
    expect(await refusal(job(scheduleTrigger('nightly'), 'auto'), { config })).toBeUndefined();
    const cli: Trigger = { ...commandBy(BYSTANDER), source: 'cli' };
    expect(await refusal(job(cli, 'auto'), { config })).toBeUndefined();
  });

  it('needs no approver for a runbook none of whose steps writes, and one for every other', async () => {
    const runbookInfo = [
      { id: 'cgroup-root-hooks', title: 'cgroup', writes: false, params: z.object({}) },
      { id: 'unmanaged-pods', title: 'unmanaged', writes: true, params: z.object({}) },
    ];
    const readOnly = job(commandBy(BYSTANDER), 'auto', { runbook: 'cgroup-root-hooks' });
    expect(await refusal(readOnly, { config, runbookInfo })).toBeUndefined();
    expect(await refusal(job(commandBy(BYSTANDER), 'auto'), { config, runbookInfo })).toBe(notApprover());
    // A runbook the list does not name is taken to write.
    const unknown = job(commandBy(BYSTANDER), 'auto', { runbook: 'host-identity' });
    expect(await refusal(unknown, { config, runbookInfo })).toBe(notApprover('host-identity'));
    // Without the list, every runbook is taken to write.
    expect(await refusal(readOnly, { config })).toBe(notApprover('cgroup-root-hooks'));
  });
});
