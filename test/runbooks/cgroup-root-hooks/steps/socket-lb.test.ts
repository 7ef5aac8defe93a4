import { describe, expect, it } from 'vitest';
import { type AgentStatus, decideSocketLb } from '../../../../runbooks/cgroup-root-hooks/steps/socket-lb.ts';

const evidence = { source: 'ip-10-0-1-10: cilium-dbg status -o json', text: '' };
const reports = (enabled: boolean): AgentStatus => ({ node: 'ip-10-0-1-10', ok: true, enabled, evidence });
const unreadable: AgentStatus = { node: 'ip-10-0-1-10', ok: false, evidence };
const KPR_ON = { 'kube-proxy-replacement': 'true' };
const KPR_OFF = { 'kube-proxy-replacement': 'false', 'bpf-lb-sock': 'false' };

describe('decideSocketLb', () => {
  it("takes the agent's word over the config, and says when they disagree", () => {
    expect(decideSocketLb(KPR_ON, reports(true))).toEqual({
      enabled: true,
      because: 'ip-10-0-1-10 reports it on',
    });
    expect(decideSocketLb(KPR_OFF, reports(true))).toEqual({
      enabled: true,
      because: 'ip-10-0-1-10 reports it on, though cilium-config bpf-lb-sock=false says off',
    });
    expect(decideSocketLb(KPR_ON, reports(false))).toEqual({
      enabled: false,
      because: 'ip-10-0-1-10 reports it off, though cilium-config kube-proxy-replacement=true says on',
    });
  });

  it('falls back to the config when no agent answers', () => {
    expect(decideSocketLb(KPR_OFF, unreadable)).toEqual({
      enabled: false,
      because: 'cilium-config bpf-lb-sock=false; ip-10-0-1-10 status unreadable',
    });
    expect(decideSocketLb(KPR_ON, undefined)).toEqual({
      enabled: true,
      because: 'cilium-config kube-proxy-replacement=true; no agent to ask',
    });
  });

  it('checks anyway when neither can tell', () => {
    expect(decideSocketLb({ 'kube-proxy-replacement': 'probe' }, unreadable)).toEqual({
      enabled: true,
      because:
        'cannot tell: cilium-config kube-proxy-replacement=probe, no bpf-lb-sock, ip-10-0-1-10 status unreadable; checking anyway',
    });
  });
});
