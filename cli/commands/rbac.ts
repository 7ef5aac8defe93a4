import { Command } from 'commander';

/** `responder rbac`: the Kubernetes RBAC the responder's group needs, from the one source of truth. */
export function rbacCommand(): Command {
  return new Command('rbac')
    .description("print the ClusterRole and Role (with bindings) for the responder's Kubernetes group")
    .option('--cilium-namespace <ns>', 'where the Cilium agents run', 'kube-system')
    .action(async (options: { ciliumNamespace: string }) => {
      const { rbacManifest } = await import('../../cdk/rbac.ts');
      process.stdout.write(rbacManifest(options.ciliumNamespace));
    });
}
