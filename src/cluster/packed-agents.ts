import type { AgentPod } from './types.ts';

/** Agents in their order, each made when asked for: what a fan-out walks. Arrays are ones too. */
export interface AgentSource {
  readonly length: number;
  at(index: number): AgentPod | undefined;
}

const SEPARATOR = '\0';
const SEPARATOR_BYTE = 0;
/** Text gathered before it is written to a buffer: about a page of agents. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A list of agents held as one buffer of their text fields and three typed arrays, off the JS
 * heap: about 180 bytes an agent, where an AgentPod object and its five strings hold about 340 on
 * the heap, all of it traced by every full collection (100,000 agents are held for a whole run).
 * Each agent is made anew when asked for, so a fan-out holds only the agents it runs.
 */
export class PackedAgents implements AgentSource {
  readonly length: number;
  readonly #text: Buffer;
  /** Where agent i's fields start and end in #text. */
  readonly #starts: Uint32Array;
  readonly #ends: Uint32Array;
  readonly #ready: Uint8Array;
  /** The agents' namespaces, one string each however many agents share it. */
  readonly #namespaces: ReadonlyMap<string, string>;

  constructor(
    text: Buffer,
    starts: Uint32Array,
    ends: Uint32Array,
    ready: Uint8Array,
    namespaces: ReadonlyMap<string, string>,
  ) {
    this.length = starts.length;
    this.#text = text;
    this.#starts = starts;
    this.#ends = ends;
    this.#ready = ready;
    this.#namespaces = namespaces;
  }

  /** Agents in the order given. */
  static of(agents: Iterable<AgentPod>): PackedAgents {
    const packer = new AgentPacker();
    for (const agent of agents) packer.add(agent);
    return packer.packed(packer.indices());
  }

  at(index: number): AgentPod | undefined {
    const i = index < 0 ? this.length + index : index;
    if (!(i >= 0 && i < this.length)) return undefined;
    const [name = '', namespace = '', uid = '', node = '', containerId = ''] = this.#fields(i);
    return {
      name,
      namespace: this.#namespaces.get(namespace) ?? namespace,
      uid,
      node,
      ready: this.#ready[i] === 1,
      ...(containerId ? { containerId } : {}),
    };
  }

  /**
   * Agent i's fields, each decoded on its own: a field cut from one string of them all (split)
   * would keep that whole string alive for as long as a caller keeps the field (a run keeps every
   * node name it has done, 100,000 of them).
   */
  #fields(i: number): string[] {
    const fields: string[] = [];
    const end = this.#ends[i] as number;
    for (let from = this.#starts[i] as number; ; ) {
      const separator = this.#text.indexOf(SEPARATOR_BYTE, from);
      const to = separator < 0 || separator > end ? end : separator;
      fields.push(this.#text.toString('utf8', from, to));
      if (to === end) return fields;
      from = to + 1;
    }
  }

  /** Every agent, made anew: for a step that needs them all at once. */
  all(): AgentPod[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i) as AgentPod);
  }
}

/**
 * Agents packed as they come (a list's pages), so no agent object outlives its page: the text of
 * each written to a buffer about a page at a time, its place and readiness in plain numbers.
 */
export class AgentPacker {
  readonly #chunks: Buffer[] = [];
  #pending = '';
  #bytes = 0;
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #ready: number[] = [];
  readonly #namespaces = new Map<string, string>();

  /** Packs `agent` (any other fields it has are left out); answers its place among those packed. */
  add(agent: AgentPod): number {
    const text = [agent.name, agent.namespace, agent.uid, agent.node, agent.containerId ?? ''].join(
      SEPARATOR,
    );
    this.#starts.push(this.#bytes);
    this.#bytes += Buffer.byteLength(text);
    this.#ends.push(this.#bytes);
    this.#ready.push(agent.ready ? 1 : 0);
    if (!this.#namespaces.has(agent.namespace)) this.#namespaces.set(agent.namespace, agent.namespace);
    this.#pending += text;
    if (this.#pending.length >= CHUNK_CHARS) this.#flush();
    return this.#starts.length - 1;
  }

  /** Every place packed, in order. */
  indices(): number[] {
    return this.#starts.map((_, i) => i);
  }

  /** The agents at `places`, in that order. */
  packed(places: readonly number[]): PackedAgents {
    this.#flush();
    const pick = (from: readonly number[]) => places.map((i) => from[i] as number);
    return new PackedAgents(
      Buffer.concat(this.#chunks.splice(0)),
      Uint32Array.from(pick(this.#starts)),
      Uint32Array.from(pick(this.#ends)),
      Uint8Array.from(pick(this.#ready)),
      this.#namespaces,
    );
  }

  #flush(): void {
    if (this.#pending) this.#chunks.push(Buffer.from(this.#pending));
    this.#pending = '';
  }
}
