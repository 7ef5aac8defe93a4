import { appTemplate } from './make/system.ts';
import type { Scenario } from './scenario.ts';

const DEPLOYMENTS_PER_NAMESPACE = 25;
/** Past this many Deployments, one identity each would not fit Cilium's 65,280. */
const IDENTITY_PER_DEPLOYMENT_UP_TO = 60_000;

/**
 * Many nodes and pods for load tests: `nodes` nodes (agents, CiliumNodes) and `podsPerNode`
 * workload pods on each, every one with a CEP. One Deployment of `podsPerNode` replicas per node;
 * the builder's round robin starts each Deployment one node further, so every node gets exactly
 * `podsPerNode` of them.
 */
export const scale: Scenario = {
  description:
    'A large healthy cluster: `nodes` nodes (default 1,000) with `podsPerNode` (default 30) pods each, all with CEPs.',
  presets: { nodes: 1000 },
  apply(builder, options) {
    const namespaces: string[] = [];
    const nodes = builder.readyNodes();
    // A team's Deployments then share its identity, as with cilium-config `labels: k8s:team`.
    if (nodes.length > IDENTITY_PER_DEPLOYMENT_UP_TO) builder.restrictIdentityLabels(['team']);
    for (let d = 0; d < nodes.length; d++) {
      const team = `team-${String(Math.floor(d / DEPLOYMENTS_PER_NAMESPACE)).padStart(3, '0')}`;
      if (d % DEPLOYMENTS_PER_NAMESPACE === 0) {
        builder.namespace(team);
        namespaces.push(team);
      }
      const name = `svc-${String(d).padStart(4, '0')}`;
      builder.deployment({
        namespace: team,
        name,
        replicas: options.podsPerNode,
        nodes,
        ...appTemplate({ app: name, team }),
      });
    }
    builder.plan.scale = { namespaces, pods: nodes.length * options.podsPerNode };
  },
};
