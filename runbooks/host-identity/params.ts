import * as z from 'zod';

// Text typed in Slack or with --set (`monitorSeconds=5`) is read as these types at admission.

export const hostIdentityParams = z.strictObject({
  monitorSeconds: z
    .int()
    .min(1)
    .max(120)
    .default(15)
    .describe("how long to watch each affected agent's drops (the kubelet probes every 10 s by default)"),
  verifyTimeoutSeconds: z
    .int()
    .min(1)
    .max(900)
    .default(180)
    .describe('how long to wait, after a restart, for the new agent to be Ready with the rule in place'),
});

export type HostIdentityParams = z.infer<typeof hostIdentityParams>;
