import { Command, InvalidArgumentError } from 'commander';
import { serveSim, untilInterrupted } from './serve-sim.ts';

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535');
  return port;
}

export function parseScenarios(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** `responder sim`: runs the simulated EKS + Cilium cluster in the foreground. */
export function simCommand(): Command {
  return new Command('sim')
    .description('run a simulated EKS + Cilium cluster (a real Kubernetes API over HTTPS) in the foreground')
    .requiredOption(
      '--scenario <names>',
      'scenarios, comma-separated (healthy, unmanaged-pods, cgroup-private-ns, host-identity-world, vxlan-blocked, all, scale)',
      parseScenarios,
    )
    .requiredOption('--kubeconfig <path>', 'where to write the kubeconfig (context "sim")')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .action(async (options: { scenario: string[]; kubeconfig: string; port?: number }) => {
      const { sim, kubeconfigPath } = await serveSim({
        scenarios: options.scenario,
        kubeconfig: options.kubeconfig,
        ...(options.port !== undefined ? { port: options.port } : {}),
      });
      // Handlers first: whoever waits for the ready line may signal us right after reading it.
      const stopped = untilInterrupted(sim);
      process.stdout.write(
        `sim ready at ${sim.url} (scenarios: ${options.scenario.join(',')}); kubeconfig: ${kubeconfigPath}\n`,
      );
      await stopped;
    });
}
