import * as z from 'zod';

/** The runbook takes no parameters: the AWS side (account, region) comes with the cluster. */
export const paramsSchema = z.strictObject({});

export type Params = z.infer<typeof paramsSchema>;
