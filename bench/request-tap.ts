import type { RequestKind } from '../sim/faults.ts';
import type { Sim } from '../sim/index.ts';

/** What the simulator saw of one client's run. */
export interface Tapped {
  /** performance.now() of the first authenticated request since the last reset, if any came. */
  firstAt: number | undefined;
  /** Exec upgrades since the last reset, counted while an exec fault (the fan-out's latency) is set. */
  execs: number;
}

/**
 * Watches the simulator's requests from the bench's side. Every authenticated request asks the
 * simulator's fault table for its kind first (sim/server/server.ts), and, when a fault is set for
 * that kind, draws once whether to fail it: wrapping the two sees each request without touching
 * the server. One client runs at a time, so the first request and the execs are that client's.
 */
export function tapRequests(sim: Sim): { reset(): void; seen(): Tapped } {
  const lookup = sim.faults.get.bind(sim.faults);
  const draw = sim.faults.shouldFail.bind(sim.faults);
  let tapped: Tapped = { firstAt: undefined, execs: 0 };
  sim.faults.get = (kind: RequestKind) => {
    tapped.firstAt ??= performance.now();
    return lookup(kind);
  };
  // An exec asks for its fault twice (once more for stalls), but draws once.
  sim.faults.shouldFail = (kind: RequestKind) => {
    if (kind === 'exec') tapped.execs++;
    return draw(kind);
  };
  return {
    reset: () => {
      tapped = { firstAt: undefined, execs: 0 };
    },
    seen: () => ({ ...tapped }),
  };
}
