import { Command } from 'commander';
import { parsePort, parseScenarios } from '../options.ts';

/** `responder sim`: runs the simulated EKS + Cilium cluster in the foreground. */
export function simCommand(): Command {
  return new Command('sim')
    .description('run a simulated EKS + Cilium cluster (a real Kubernetes API over HTTPS) in the foreground')
    .requiredOption(
      '--scenario <names>',
      'scenarios, comma-separated (healthy, unmanaged-pods, cgroup-private-ns, cgroup-hooks-left-behind, cgroup-hooks-split, cgroup-hooks-removed, host-identity-world, vxlan-blocked, all, scale)',
      parseScenarios,
    )
    .requiredOption('--kubeconfig <path>', 'where to write the kubeconfig (context "sim")')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .action(async (options) => (await import('../actions/sim.ts')).simAction(options));
}
