import { Command } from 'commander';
import { CONFIG_HELP } from '../options.ts';

/** `responder rbac`: the Kubernetes RBAC the responder's group needs, from the one source of truth. */
export function rbacCommand(): Command {
  return new Command('rbac')
    .description("print the ClusterRole and Role (with bindings) for the responder's Kubernetes group")
    .option('--cilium-namespace <ns>', 'where the Cilium agents run', 'kube-system')
    .option('--config <path>', `${CONFIG_HELP}; its runbooks' declared reads are included`)
    .action(async (options: { ciliumNamespace: string; config?: string }) => {
      const { rbacManifest } = await import('../../cdk/rbac.ts');
      const { localSetup } = await import('../local-app.ts');
      const { runbooks } = await localSetup(options.config);
      process.stdout.write(rbacManifest(options.ciliumNamespace, runbooks.permissions));
    });
}
