/** One measured figure, and the limit it is held to when it has one. */
export interface Figure {
  /** The median when the figure comes from several runs. */
  value: number | string;
  /** The lowest and highest run: how far one run may land from the median. */
  spread?: { min: number; max: number };
  /** How many runs the median and spread come from. */
  runs?: number;
  /** The figure must stay at or below this. */
  atMost?: number;
  /** The figure must stay at or above this. */
  atLeast?: number;
}

export type Figures = Record<string, Figure | number | string>;

/** Every figure the README quotes comes from at least this many runs. */
export const MIN_RUNS = 5;

export function withinLimit(figure: Figure): boolean | undefined {
  if (typeof figure.value !== 'number') return undefined;
  if (figure.atMost === undefined && figure.atLeast === undefined) return undefined;
  return (
    (figure.atMost === undefined || figure.value <= figure.atMost) &&
    (figure.atLeast === undefined || figure.value >= figure.atLeast)
  );
}

export const asFigure = (entry: Figure | number | string): Figure =>
  typeof entry === 'object' ? entry : { value: entry };

/** The p-th percentile (0..100) of some samples. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The middle sample (the mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * Several runs of one measurement as a figure: their median, the lowest and highest run, and how
 * many runs there were. A ratio is taken per run (both sides measured in the same round) before it
 * is summarised, so a slow round moves both sides, not the ratio.
 */
export function fromRuns(
  samples: readonly number[],
  digits: number,
  limit: Pick<Figure, 'atMost' | 'atLeast'> = {},
): Figure {
  if (samples.length === 0) throw new Error('a figure needs at least one run');
  return {
    value: round(median(samples), digits),
    spread: { min: round(Math.min(...samples), digits), max: round(Math.max(...samples), digits) },
    runs: samples.length,
    ...limit,
  };
}

/** Per-round ratios of two paired series (round i of `top` over round i of `bottom`). */
export function pairedRatios(top: readonly number[], bottom: readonly number[]): number[] {
  if (top.length !== bottom.length) throw new Error('paired series differ in length');
  return top.map((value, index) => value / (bottom[index] as number));
}

/** How a figure reads in the bench's output: `1.07 (0.98-1.12, 5 runs)`. */
export function describe(figure: Figure): string {
  const spread = figure.spread ? ` (${figure.spread.min}-${figure.spread.max}, ${figure.runs} runs)` : '';
  return `${figure.value}${spread}`;
}
