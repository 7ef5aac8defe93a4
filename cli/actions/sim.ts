import { serveSim, untilInterrupted } from '../serve/serve-sim.ts';

export async function simAction(options: { scenario: string[]; kubeconfig: string; port?: number }) {
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
}
