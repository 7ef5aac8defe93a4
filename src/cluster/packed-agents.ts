import type { AgentPod } from './types.ts';

/** Agents in their order, each made when asked for: what a fan-out walks. Arrays are ones too. */
export interface AgentSource {
  readonly length: number;
  at(index: number): AgentPod | undefined;
}

const SEPARATOR = '\0';

/**
 * A list of agents held as one buffer of their text fields and two typed arrays, off the JS heap:
 * about 170 bytes an agent, where an AgentPod object and its five strings hold about 340 on the
 * heap, all of it traced by every full collection (100,000 agents are held for a whole run). Each
 * agent is made anew when asked for, so a fan-out holds only the agents it runs.
 */
export class PackedAgents implements AgentSource {
  readonly length: number;
  readonly #text: Buffer;
  /** Where agent i's fields start in #text; agent i ends where i + 1 starts. */
  readonly #starts: Uint32Array;
  readonly #ready: Uint8Array;
  /** The agents' namespaces, one string each however many agents share it. */
  readonly #namespaces = new Map<string, string>();

  constructor(agents: readonly AgentPod[]) {
    this.length = agents.length;
    this.#starts = new Uint32Array(agents.length + 1);
    this.#ready = new Uint8Array(agents.length);
    // Written straight into the buffer: no text of all the agents is ever held on the heap.
    const textOf = (agent: AgentPod) =>
      [agent.name, agent.namespace, agent.uid, agent.node, agent.containerId ?? ''].join(SEPARATOR);
    let end = 0;
    agents.forEach((agent, i) => {
      this.#ready[i] = agent.ready ? 1 : 0;
      this.#namespaces.set(agent.namespace, agent.namespace);
      end += Buffer.byteLength(textOf(agent));
      this.#starts[i + 1] = end;
    });
    this.#text = Buffer.allocUnsafe(end);
    agents.forEach((agent, i) => {
      this.#text.write(textOf(agent), this.#starts[i] as number);
    });
  }

  at(index: number): AgentPod | undefined {
    const i = index < 0 ? this.length + index : index;
    if (!(i >= 0 && i < this.length)) return undefined;
    const [name = '', namespace = '', uid = '', node = '', containerId = ''] = this.#text
      .toString('utf8', this.#starts[i], this.#starts[i + 1])
      .split(SEPARATOR);
    return {
      name,
      namespace: this.#namespaces.get(namespace) ?? namespace,
      uid,
      node,
      ready: this.#ready[i] === 1,
      ...(containerId ? { containerId } : {}),
    };
  }

  /** Every agent, made anew: for a step that needs them all at once. */
  all(): AgentPod[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i) as AgentPod);
  }
}
