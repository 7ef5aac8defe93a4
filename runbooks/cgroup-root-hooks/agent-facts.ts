import type { AgentPod, CiliumFacade } from '../../src/cluster/types.ts';
import { parseCgroupNamespace, parseInode } from './cgroup-signals.ts';
import { type CgroupTree, parseCgroupTree } from './cgroup-tree.ts';
import { failureText } from './command-output.ts';
import type { AgentCgroupFacts } from './placement.ts';

/** All this needs of the Cilium facade. */
type AgentExec = Pick<CiliumFacade, 'exec'>;

/** A command's stdout; a non-zero exit is an error that names the command and what it said. */
async function stdoutOf(cilium: AgentExec, agent: AgentPod, command: string[]): Promise<string> {
  const result = await cilium.exec(agent, command);
  if (result.exitCode === 0) return result.stdout.toString();
  throw new Error(`${command.join(' ')}: ${failureText(result)}`);
}

/**
 * The walk from the agent's cgroup root: JSON first, the text form when JSON fails or does not
 * parse. Exec errors (forbidden, timeout) are not retried as text: they would fail the same way.
 */
async function cgroupTree(cilium: AgentExec, agent: AgentPod, root: string): Promise<CgroupTree> {
  const json = await cilium.exec(agent, ['bpftool', '-j', 'cgroup', 'tree', root]);
  if (json.exitCode === 0) {
    try {
      return parseCgroupTree(json.stdout.toString());
    } catch {
      // Fall through to the text form, whose parser reports what is wrong if it fails too.
    }
  }
  return parseCgroupTree(await stdoutOf(cilium, agent, ['bpftool', 'cgroup', 'tree', root]));
}

/** Both signals from inside the agent container, and the walk from its cgroup root. */
export async function readAgentFacts(
  cilium: AgentExec,
  agent: AgentPod,
  root: string,
): Promise<AgentCgroupFacts> {
  const [inode, namespace, tree] = await Promise.all([
    stdoutOf(cilium, agent, ['stat', '-c', '%i', root]).then(parseInode),
    stdoutOf(cilium, agent, ['readlink', '/proc/self/ns/cgroup']).then(parseCgroupNamespace),
    cgroupTree(cilium, agent, root),
  ]);
  return { agent, root, inode, namespace, tree };
}
