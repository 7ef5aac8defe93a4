import { Command } from 'commander';
import { AGENT_LABEL, CILIUM_NAMESPACE, R } from '../../sim/cluster.ts';
import { serveSim, untilInterrupted } from './serve-sim.ts';

/** `responder demo` (`npm start`): the simulator with every incident planted, and how to look at it. */
export function demoCommand(): Command {
  return new Command('demo')
    .description('start the simulator with all four incidents and show how to point kubectl at it')
    .option('--kubeconfig <path>', 'where to write the kubeconfig', 'sim.kubeconfig')
    .action(async (options: { kubeconfig: string }) => {
      const { sim, kubeconfigPath } = await serveSim({ scenarios: ['all'], kubeconfig: options.kubeconfig });
      const stopped = untilInterrupted(sim);
      const agent = sim.cluster.store.list(R.pods, {
        namespace: CILIUM_NAMESPACE,
        limit: 1,
        filter: (pod) => pod.metadata.labels?.['k8s-app'] === AGENT_LABEL['k8s-app'],
      }).items[0]?.metadata.name;
      process.stdout.write(
        [
          `Simulated EKS cluster with Cilium ready at ${sim.url}: all four incidents are planted.`,
          '',
          'Point kubectl at it (in another terminal):',
          `  export KUBECONFIG=${kubeconfigPath}`,
          '  kubectl get nodes',
          '  kubectl get pods -A',
          '  kubectl get cep -A                      # pods without a CiliumEndpoint are unmanaged',
          '  kubectl get cm -n kube-system cilium-config -o yaml',
          ...(agent ? [`  kubectl exec -n kube-system ${agent} -- bpftool cgroup tree`] : []),
          '',
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
      await stopped;
    });
}
