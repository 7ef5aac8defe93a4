import * as z from 'zod';

/** The runbook takes no parameters: the AWS side (account, region) comes with the cluster. */
export const tunnelDatapathParams = z.strictObject({});

export type TunnelDatapathParams = z.infer<typeof tunnelDatapathParams>;
