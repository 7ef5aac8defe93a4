// Type test (checked by `tsc --noEmit` in `npm test`): a step cannot write through ctx.kube; every
// write goes through ctx.actuator, whose rails (mode, exclusions, caps, brake, PDBs) always hold.
import { defineStep, outcome } from 'cilium-responder/sdk';

export const tries = defineStep({
  id: 'tries-to-write',
  title: 'writes around the actuator',
  run: async (ctx) => {
    // @ts-expect-error KubeReader has no evict
    await ctx.kube.evict('kube-system', 'kube-proxy-abcde', { uid: 'x' });
    // @ts-expect-error KubeReader has no deletePod
    await ctx.kube.deletePod('kube-system', 'kube-proxy-abcde', 'x');
    // @ts-expect-error KubeReader has no create
    await ctx.kube.create({});
    return outcome('pass', 'unreachable');
  },
});
