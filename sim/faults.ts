/**
 * Fault injection, per request kind, adjustable while the simulator runs. Tests use it to prove
 * the client's timeouts, retries and error handling against real HTTP behaviour.
 */
export type RequestKind =
  | 'discovery'
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'eviction'
  | 'exec'
  | 'log';

export interface Fault {
  /** Added before the request is answered. */
  latencyMs?: number;
  /** Fraction (0..1) of requests answered with `errorCode` instead. */
  errorRate?: number;
  /**
   * 500 (InternalError), 504 (Timeout, kube-apiserver's answer to a request that outlived its
   * deadline), 429 (TooManyRequests, with Retry-After), or `reset`: the connection is dropped with
   * no answer. Default 500.
   */
  errorCode?: 500 | 504 | 429 | 'reset';
  /**
   * The failing request is carried out first, and only its answer fails, as kube-apiserver can
   * apply a write and still time out: the client cannot tell that it happened.
   */
  afterApply?: boolean;
  /** Retry-After seconds sent with a 429. Default 1. */
  retryAfterSeconds?: number;
  /** Exec only: after the handshake, never send output or a status frame. */
  execStall?: boolean;
  /** Exec only: close the connection abruptly after this many output bytes, without a status frame. */
  execDropAfterBytes?: number;
}

export class Faults {
  private readonly byKind = new Map<RequestKind, Fault>();
  private readonly random: () => number;

  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  set(kind: RequestKind, fault: Fault): void {
    this.byKind.set(kind, fault);
  }

  clear(kind?: RequestKind): void {
    if (kind) this.byKind.delete(kind);
    else this.byKind.clear();
  }

  get(kind: RequestKind): Fault | undefined {
    return this.byKind.get(kind);
  }

  /** Whether this request should fail, drawn once per request. */
  shouldFail(kind: RequestKind): boolean {
    const rate = this.byKind.get(kind)?.errorRate ?? 0;
    return rate > 0 && this.random() < rate;
  }
}
