import { Agent, type AgentOptions, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import { resumptionSession } from './tls-session.ts';

export interface PreconnectOptions {
  /** Connections kept opening ahead of demand while connections are opened in a burst, at first. */
  spares?: number;
  /**
   * At most this many: one more each time a spare is taken before its handshake finished (the
   * server or this process is slow to answer), one fewer each time one sits idle until it closes.
   */
  maxSpares?: number;
  /** A connection opened within this long of the previous one makes a burst. */
  burstWindowMs?: number;
  /** A spare not taken within this long is closed, and never handed out after it. */
  spareIdleMs?: number;
}

interface Spare {
  socket: TLSSocket;
  openedAt: number;
  /** Its TLS handshake has finished: a request on it is written at once. */
  ready: boolean;
  forget: () => void;
}

const ignore = () => {};

/** tls.connect's own way of resuming a session (on TLSSocket since node 0.11, untyped). */
type ResumableSocket = TLSSocket & { setSession(session: Buffer): void };

/**
 * An https agent for exec fan-outs: every exec upgrade takes its connection for good, so each
 * one would otherwise wait for TCP and TLS before it can even ask. While connections are opened in
 * a burst, a few spares are kept opening in the background, more of them while the ones taken
 * are still shaking hands; the next upgrade takes one that is already connected and writes its
 * request at once. Spares never keep the process
 * alive and close after a short idle time. Every socket has Nagle's algorithm off: a request
 * written on a connection that finished its handshake a moment ago would otherwise wait for the
 * server's delayed ACK (40 ms on Linux). Each connection resumes the last TLS session the server
 * gave, set once: node 20's tls.connect decodes a session it is handed twice (in the socket's
 * constructor and again after it), which at one connection per exec was a fifth of the fan-out's
 * client CPU; and it is kept without the server's certificate (resumptionSession), whose decoding
 * was most of what was left of that.
 */
export class PreconnectAgent extends Agent {
  readonly #spares = new Map<string, Spare[]>();
  /** The newest TLS session per connection name (host, port, TLS options), for the next connection. */
  readonly #sessions = new Map<string, Buffer>();
  readonly #minSpares: number;
  readonly #maxSpares: number;
  #spareCount: number;
  readonly #burstWindowMs: number;
  readonly #spareIdleMs: number;
  #lastOpenedAt = Number.NEGATIVE_INFINITY;

  constructor(options: AgentOptions & PreconnectOptions = {}) {
    const {
      spares = 2,
      maxSpares = 16,
      burstWindowMs = 1_000,
      spareIdleMs = 2_000,
      ...agentOptions
    } = options;
    super(agentOptions);
    this.#minSpares = spares;
    this.#maxSpares = Math.max(spares, maxSpares);
    this.#spareCount = spares;
    this.#burstWindowMs = burstWindowMs;
    this.#spareIdleMs = spareIdleMs;
  }

  override createConnection(options: RequestOptions): Duplex | null | undefined {
    const now = performance.now();
    const inBurst = now - this.#lastOpenedAt < this.#burstWindowMs;
    this.#lastOpenedAt = now;
    const name = this.getName(options);
    const spare = this.#take(name, now);
    if (inBurst) this.#topUp(name, options);
    return spare ?? this.#open(name, options);
  }

  override destroy(): void {
    for (const spares of this.#spares.values()) for (const spare of spares) spare.socket.destroy();
    this.#spares.clear();
    this.#sessions.clear();
    super.destroy();
  }

  #open(name: string, options: RequestOptions): TLSSocket {
    // No session for the base agent to hand tls.connect; it is set once below instead.
    const unresumed: RequestOptions & Pick<ConnectionOptions, 'session'> = { ...options, session: undefined };
    const socket = super.createConnection(unresumed) as ResumableSocket;
    const session = this.#sessions.get(name);
    if (session) socket.setSession(session);
    socket.on('session', (next: Buffer) => this.#sessions.set(name, resumptionSession(next)));
    // As node's agent does: a session whose connection failed is not tried again.
    socket.once('close', (hadError: boolean) => {
      if (hadError) this.#sessions.delete(name);
    });
    socket.setNoDelay(true);
    return socket;
  }

  /** The oldest live spare, ready for a request; spares past their idle time are closed on the way. */
  #take(name: string, now: number): TLSSocket | undefined {
    const spares = this.#spares.get(name);
    while (spares?.length) {
      const spare = spares.shift() as Spare;
      spare.forget();
      // A frozen Lambda fires no timers: age is checked here too.
      if (spare.socket.destroyed || now - spare.openedAt >= this.#spareIdleMs) {
        spare.socket.destroy();
        continue;
      }
      // Still shaking hands: the spares open too late for this burst, so keep more of them opening.
      if (!spare.ready) this.#spareCount = Math.min(this.#maxSpares, this.#spareCount + 1);
      spare.socket.setTimeout(0);
      spare.socket.ref();
      return spare.socket;
    }
    return undefined;
  }

  #topUp(name: string, options: RequestOptions): void {
    let spares = this.#spares.get(name);
    if (!spares) {
      spares = [];
      this.#spares.set(name, spares);
    }
    const list = spares;
    while (list.length < this.#spareCount) {
      const socket = this.#open(name, { ...options });
      const spare: Spare = {
        socket,
        openedAt: performance.now(),
        ready: false,
        forget: () => {
          socket.off('error', ignore);
          socket.off('close', drop);
          socket.off('timeout', expire);
          socket.off('secureConnect', ready);
        },
      };
      const ready = () => {
        spare.ready = true;
      };
      const drop = () => {
        const at = list.indexOf(spare);
        if (at >= 0) list.splice(at, 1);
      };
      const expire = () => {
        this.#spareCount = Math.max(this.#minSpares, this.#spareCount - 1);
        socket.destroy();
      };
      // Until a request takes it, a spare's failure is nobody's: it just leaves the pool.
      socket.on('error', ignore);
      socket.once('close', drop);
      socket.once('secureConnect', ready);
      socket.setTimeout(this.#spareIdleMs, expire);
      socket.unref();
      list.push(spare);
    }
  }
}
