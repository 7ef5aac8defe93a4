import { z } from 'zod';

// Coerced: values typed in Slack (`monitorSeconds=5`) arrive as strings.

export const hostIdentityParams = z.strictObject({
  /** How long to watch each affected agent's drops; kubelet probes every 10 s by default. */
  monitorSeconds: z.coerce.number().int().min(1).max(120).default(15),
  /** How long to wait, after a restart, for the new agent to be Ready with the rule in place. */
  verifyTimeoutSeconds: z.coerce.number().int().min(1).max(900).default(180),
});

export type HostIdentityParams = z.infer<typeof hostIdentityParams>;
