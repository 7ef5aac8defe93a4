import { channel } from 'node:diagnostics_channel';

/** Where the simulator publishes each exec's timeline when it closes (for the bench). */
export const EXEC_TIMELINE_CHANNEL = 'sim.exec.timeline';
const published = channel(EXEC_TIMELINE_CHANNEL);

/**
 * The moments of one exec on the simulator's side, in ms after its upgrade request arrived:
 * kept only while someone listens, so the simulator pays nothing otherwise.
 */
export class ExecTimeline {
  readonly #began = performance.now();
  readonly #moments: Record<string, number> | undefined = published.hasSubscribers ? {} : undefined;

  mark(moment: string): void {
    if (this.#moments) this.#moments[moment] ??= Number((performance.now() - this.#began).toFixed(2));
  }

  /** Marks the close and hands the timeline to the listener. */
  close(): void {
    if (!this.#moments) return;
    this.mark('closed');
    published.publish(this.#moments);
  }
}
