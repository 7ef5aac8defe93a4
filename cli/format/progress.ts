/** Widest progress line: a terminal's width, at most this. */
const MAX_WIDTH = 100;
/** How often a countdown redraws on a terminal. */
const TICK_MS = 250;

export interface ProgressLine {
  /**
   * Where the work is, e.g. `host-identity/policy-drops: 2/3 agents watched for drops`. A bounded
   * wait passes `endsAt` (epoch ms), and the line counts down to it.
   */
  update(where: string, done: number, total: number, label: string, endsAt?: number): void;
  /** Clears the line (on a terminal) before other output. */
  done(): void;
}

function clip(line: string, width = MAX_WIDTH): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

export function secondsLeft(endsAt: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

/**
 * A progress line for agent fan-outs and waits: on a terminal one line redrawn in place, with a
 * countdown ticking during a bounded wait; otherwise one short static line per wait (with its
 * bound) and one per finished fan-out, so a log stays readable.
 */
export function progressLine(stream: NodeJS.WriteStream): ProgressLine {
  let shown = false;
  let current: { text: string; endsAt?: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const announced = new Set<string>();

  const width = () => Math.min(MAX_WIDTH, stream.columns || MAX_WIDTH) - 1;
  const draw = () => {
    if (!current) return;
    const left = current.endsAt === undefined ? '' : ` · ${secondsLeft(current.endsAt)} s left`;
    const line = `  ${current.text}${left}`;
    stream.write(`\r${line.length > width() ? `${line.slice(0, width() - 1)}…` : line}\u001b[K`);
    shown = true;
  };
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  return {
    update(where, done, total, label, endsAt) {
      const text = `${where}: ${done}/${total} ${label}`;
      if (stream.isTTY) {
        current = endsAt === undefined ? { text } : { text, endsAt };
        draw();
        if (endsAt !== undefined && done < total && !timer) {
          timer = setInterval(draw, TICK_MS);
          timer.unref();
        }
        if (endsAt === undefined || done >= total) stopTimer();
        return;
      }
      if (endsAt === undefined) {
        if (done === total) stream.write(`${clip(`  ${text}`)}\n`);
        return;
      }
      // A wait: one line when it starts (or its result, when it is over at once).
      const key = `${where}\u0000${label}\u0000${endsAt}`;
      if (announced.has(key)) return;
      announced.add(key);
      const bound = done < total ? ` (waiting up to ${secondsLeft(endsAt)} s)` : '';
      stream.write(`${clip(`  ${text}${bound}`)}\n`);
    },
    done() {
      stopTimer();
      current = undefined;
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
