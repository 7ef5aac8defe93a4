/** One measured figure, and the limit it is held to when it has one. */
export interface Figure {
  value: number | string;
  /** The figure must stay at or below this. */
  atMost?: number;
  /** The figure must stay at or above this. */
  atLeast?: number;
}

export type Figures = Record<string, Figure | number | string>;

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
