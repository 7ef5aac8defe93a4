import * as z from 'zod';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ONE_DAY_SECONDS = 86_400;

/**
 * What a caller may change: how old an unmanaged pod must be, and which namespaces to look at.
 * Text (`gracePeriodSeconds=30 namespaces=shop,web`) is read as these types at admission.
 */
export const unmanagedPodsParams = z.strictObject({
  gracePeriodSeconds: z
    .int({ error: 'must be a whole number of seconds' })
    .min(0, { error: 'must be 0 or more seconds' })
    .max(ONE_DAY_SECONDS, { error: `must be at most ${ONE_DAY_SECONDS} seconds (one day)` })
    .optional()
    .describe(
      "how long a pod must have run without a CiliumEndpoint before it counts (default: the config's limits.gracePeriodSeconds, 60)",
    ),
  namespaces: z
    .array(
      z
        .string({ error: 'must be a namespace name' })
        .max(63, { error: 'must be a namespace name (at most 63 characters)' })
        .regex(DNS_LABEL, { error: 'must be a namespace name (lowercase letters, digits and -)' }),
      { error: 'must be a list of namespace names' },
    )
    .min(1, { error: 'must name at least one namespace (leave it out for all namespaces)' })
    .optional()
    .describe('only these namespaces (default: every namespace)'),
});

export type UnmanagedPodsParams = z.infer<typeof unmanagedPodsParams>;
