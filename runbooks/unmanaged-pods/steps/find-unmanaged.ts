import { defineStep, type Evidence, outcome, podKey, statusFor } from '../../../sdk/index.ts';
import { holdExplanation, restartExplanation, unmanagedPodFinding } from '../findings.ts';
import type { UnmanagedPodsParams } from '../params.ts';
import type { Scan } from '../scan.ts';
import { firstScan, type UnmanagedPodsState } from '../state.ts';
import { count, formatAge, listSome } from '../wording.ts';

function scanEvidence(scan: Scan): Evidence[] {
  const evidence: Evidence[] = [
    {
      source: 'pods, ciliumendpoints',
      text: `${count(scan.podsChecked, 'Running pod')} on the pod network, ${count(scan.endpoints, 'CiliumEndpoint')}`,
    },
  ];
  if (scan.young.length > 0) {
    // Not findings: a new pod's endpoint can take a few seconds to appear.
    const young = scan.young.map((pod) => `${podKey(pod)} (${formatAge(pod.ageSeconds)})`);
    evidence.push({
      source: 'pods',
      text: `${count(young.length, 'pod')} without a CiliumEndpoint yet, within the ${scan.graceSeconds}s grace period: ${listSome(young)}`,
    });
  }
  return evidence;
}

/** Step 2: Running pods on the pod network, older than the grace period, without a CiliumEndpoint. */
export const findUnmanaged = defineStep<UnmanagedPodsParams, UnmanagedPodsState>({
  id: 'find-unmanaged',
  title: 'Pods Cilium does not manage',
  writes: false,
  async run(ctx) {
    const scan = await firstScan(ctx);
    const evidence = scanEvidence(scan);
    const { unmanaged } = scan;
    if (unmanaged.length === 0) {
      return outcome('pass', `no unmanaged pods among ${count(scan.podsChecked, 'Running pod')}`, {
        evidence,
      });
    }
    const findings = unmanaged.map((pod) =>
      unmanagedPodFinding(pod, holdExplanation(pod, ctx.cilium.namespace) ?? restartExplanation(pod)),
    );
    const held = unmanaged.filter((pod) => pod.hold).length;
    const nodes = new Set(unmanaged.map((pod) => pod.node)).size;
    const summary = `${count(unmanaged.length, 'unmanaged pod')} on ${count(nodes, 'node')}: ${unmanaged.length - held} to restart, ${held} left alone`;
    return outcome(statusFor(findings), summary, { findings, evidence });
  },
});
