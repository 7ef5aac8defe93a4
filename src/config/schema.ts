import { z } from 'zod';

/** How the responder reaches one cluster: exactly one of `eks`, `kubeconfig` or `sim`. */
const ClusterSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
    eks: z
      .object({
        name: z.string().min(1),
        region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as eu-west-1'),
        roleArn: z
          .string()
          .regex(/^arn:aws[\w-]*:iam::\d{12}:role\/.+$/, 'an IAM role ARN')
          .optional(),
      })
      .strict()
      .optional(),
    kubeconfig: z
      .object({ path: z.string().min(1), context: z.string().min(1).optional() })
      .strict()
      .optional(),
    sim: z
      .object({ scenarios: z.array(z.string().min(1)).min(1) })
      .strict()
      .optional(),
    ciliumNamespace: z.string().min(1).default('kube-system'),
    /** Chat channel for this cluster's reports. */
    channel: z.string().min(1).optional(),
  })
  .strict()
  .refine((cluster) => [cluster.eks, cluster.kubeconfig, cluster.sim].filter(Boolean).length === 1, {
    message: 'set exactly one of eks, kubeconfig or sim',
  });

export const ConfigSchema = z
  .object({
    clusters: z.array(ClusterSchema).min(1),
  })
  .strict()
  .refine((config) => new Set(config.clusters.map((c) => c.name)).size === config.clusters.length, {
    message: 'cluster names must be unique',
    path: ['clusters'],
  });

export type ClusterConfig = z.infer<typeof ClusterSchema>;
export type ResponderConfig = z.infer<typeof ConfigSchema>;
