import type { AgentState } from '../agent-state.ts';
import type { SimCluster } from '../cluster.ts';
import type { Pod } from '../objects.ts';

/** An exec request the API server has already authenticated, authorised and validated. */
export interface ExecRequest {
  pod: Pod;
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Where a command runs: the container, and the agent facts when it is a Cilium agent container. */
export interface CommandContext {
  cluster: SimCluster;
  pod: Pod;
  container: string;
  agent?: AgentState;
}

/** A process's standard streams; `signal` aborts when the session ends or a parent (timeout) kills it. */
export interface CommandIO {
  stdout(chunk: string | Buffer): void;
  stderr(chunk: string | Buffer): void;
  signal: AbortSignal;
  /** Present when the session attached stdin; ends when the client closes it. */
  stdin?: AsyncIterable<Buffer>;
}

/** One run of a program: argv[0] is the name it was invoked by; `run` starts a child (for timeout). */
export interface Invocation {
  ctx: CommandContext;
  argv: string[];
  io: CommandIO;
  run(argv: string[], io: CommandIO): Promise<number>;
}

/** A simulated executable; resolves to its exit code. */
export type Program = (invocation: Invocation) => number | Promise<number>;

/** An invocation inside a Cilium agent container, where the agent's facts are always known. */
export interface AgentInvocation extends Invocation {
  agent: AgentState;
}

/** A program that only exists in the agent image (cilium-dbg, bpftool, iptables-save...). */
export type AgentProgram = (invocation: AgentInvocation) => number | Promise<number>;
