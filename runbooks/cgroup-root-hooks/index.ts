import { defineRunbook } from '../../sdk/index.ts';
import { cgroupRootHooksParams } from './params.ts';
import { agentCgroupRootStep } from './steps/agent-cgroup-root.ts';
import { type CgroupRootState, socketLbStep } from './steps/socket-lb.ts';

export { parseCgroupNamespace, parseInode } from './cgroup-signals.ts';
export type {
  CgroupEntry,
  CgroupProgram,
  CgroupTree,
  SocketHookPlacement,
} from './cgroup-tree.ts';
export { parseCgroupShow, parseCgroupTree } from './cgroup-tree.ts';
export { parseSocketLbStatus } from './socket-lb.ts';

/**
 * Domain incident 2: the agent mounted its own container's cgroup as "the" cgroup2 root, so its
 * socket-LB hooks translate ClusterIPs for nobody else. Read-only: it reports the Helm fix.
 */
export const cgroupRootHooks = defineRunbook({
  id: 'cgroup-root-hooks',
  title: 'Socket-LB hooks on the wrong cgroup',
  summary:
    "ClusterIP services dead while pod IPs work: checks that each Cilium agent's socket-LB hooks sit on the host's cgroup2 root.",
  params: cgroupRootHooksParams,
  answers: ['CiliumClusterIPUnreachable', 'CiliumCgroupMountFailed'],
  state: (): CgroupRootState => ({}),
  steps: [socketLbStep, agentCgroupRootStep],
});
