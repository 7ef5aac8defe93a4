import * as z from 'zod';

/** The runbook checks every agent; it takes no parameters. */
export const cgroupRootHooksParams = z.strictObject({});

export type CgroupRootHooksParams = z.infer<typeof cgroupRootHooksParams>;
