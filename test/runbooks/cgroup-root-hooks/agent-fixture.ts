import { sh } from '../../../sim/exec/commands/sh/cli.ts';
import type { CommandContext, CommandIO } from '../../../sim/exec/types.ts';
import type { AgentPod, ExecResult } from '../../../src/cluster/types.ts';

/** The cgroup root the agents mount, and one agent pod, as the cgroup-root-hooks tests use them. */
export const ROOT = '/run/cilium/cgroupv2';
export const AGENT: AgentPod = {
  name: 'cilium-x7k2p',
  namespace: 'kube-system',
  uid: 'u-1',
  node: 'ip-10-0-1-10',
  ready: true,
  containerId: 'containerd://9f2c',
};

/** Cilium's ten socket-LB hooks as current bpftool names their attach types, with the programs' names. */
export const CILIUM_HOOKS = [
  ['cgroup_inet4_connect', 'cil_sock4_connect'],
  ['cgroup_inet6_connect', 'cil_sock6_connect'],
  ['cgroup_inet4_post_bind', 'cil_sock4_post_bind'],
  ['cgroup_inet6_post_bind', 'cil_sock6_post_bind'],
  ['cgroup_udp4_sendmsg', 'cil_sock4_sendmsg'],
  ['cgroup_udp6_sendmsg', 'cil_sock6_sendmsg'],
  ['cgroup_udp4_recvmsg', 'cil_sock4_recvmsg'],
  ['cgroup_udp6_recvmsg', 'cil_sock6_recvmsg'],
  ['cgroup_inet4_getpeername', 'cil_sock4_getpeername'],
  ['cgroup_inet6_getpeername', 'cil_sock6_getpeername'],
] as const;

/** A program as `bpftool -j cgroup tree` lists it under a cgroup. */
export type TreeProgram = { id: number; attach_type: string; attach_flags: string; name: string };

/** Cilium's hooks `from` to `to` (exclusive) as attached programs, ids counting from `idBase`. */
export function ciliumPrograms(from: number, to: number, idBase: number): TreeProgram[] {
  return CILIUM_HOOKS.slice(from, to).map(([type, name], i) => ({
    id: idBase + i,
    attach_type: type,
    attach_flags: 'multi',
    name,
  }));
}

export type Answer = ExecResult | Error;

/** Runs a command line from the table as a program would: its streams, then its status. */
function answerProgram(answer: ExecResult, io: CommandIO): number {
  io.stdout(answer.stdout);
  io.stderr(answer.stderr);
  return answer.exitCode;
}

/**
 * An agent that answers each command line from a table, and remembers what it was asked. A
 * `sh -c` script runs through the simulator's shell, each command in it answered from the table
 * (and remembered), as /bin/sh in the agent image would run it.
 */
export function agentAnswering(answers: Record<string, Answer>) {
  const asked: string[] = [];
  const execs: string[][] = [];
  const answerFor = (command: string[]): Answer => {
    const line = command.join(' ');
    asked.push(line);
    const answer = answers[line];
    if (answer === undefined) throw new Error(`unexpected command ${line}`);
    return answer;
  };
  const exec = async (_agent: AgentPod, command: string[]): Promise<ExecResult> => {
    execs.push(command);
    if (command[0] === 'sh' && answers[command.join(' ')] === undefined) {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const io: CommandIO = {
        stdout: (chunk) => out.push(Buffer.from(chunk)),
        stderr: (chunk) => err.push(Buffer.from(chunk)),
        signal: AbortSignal.timeout(5_000),
      };
      const exitCode = await sh({
        ctx: {} as CommandContext,
        argv: command,
        io,
        run: async (argv, childIo) => {
          const answer = answerFor(argv);
          if (answer instanceof Error) throw answer;
          return answerProgram(answer, childIo);
        },
      });
      return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode };
    }
    const answer = answerFor(command);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { exec, asked, execs };
}
