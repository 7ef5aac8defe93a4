import * as z from 'zod';

/** The runbook checks every agent; it takes no parameters. */
export const params = z.strictObject({});

export type Params = z.infer<typeof params>;
