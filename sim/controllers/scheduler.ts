/**
 * Deferred work for the simulated controllers. Store events are emitted synchronously inside a
 * write, so reacting inline would deliver a controller's writes to later listeners (watches)
 * before the event that caused them; work runs on a microtask instead, like an informer's queue.
 * Everything stops with `stop()`, and a failing reaction is reported, not thrown into a write.
 */
export class Scheduler {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private stopped = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Runs `work` after the current store write and its event delivery have finished. */
  soon(work: () => void): void {
    queueMicrotask(() => this.run(work));
  }

  /** Runs `work` after `ms` milliseconds (on a microtask when `ms` is 0). */
  after(ms: number, work: () => void): void {
    if (ms <= 0) {
      this.soon(work);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run(work);
    }, ms);
    this.timers.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private run(work: () => void): void {
    if (this.stopped) return;
    try {
      work();
    } catch (error) {
      this.onError(error);
    }
  }
}
