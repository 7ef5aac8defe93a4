import { z } from 'zod';

export const paramsSchema = z.object({
  /** Set on EKS clusters: the node security groups are read from EC2 in this region. */
  aws: z.object({ region: z.string().min(1) }).optional(),
});

export type Params = z.infer<typeof paramsSchema>;
