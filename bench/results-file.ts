import { cpus, loadavg, totalmem } from 'node:os';
import { asFigure, type Figure, type Figures, withinLimit } from './figures.ts';

/** A machine is quiet when its 1-minute load average is under this as the run starts. */
export const QUIET_LOAD = 0.5;

/** One figure as results.json holds it: its limit (when it has one) and whether it held. */
export type RecordedFigure = Figure & { ok?: boolean };

export interface Machine {
  cpus: number;
  model: string;
  memoryGiB: number;
  node: string;
}

export interface Load {
  /** 1, 5 and 15-minute load averages. */
  atStart: number[];
  atEnd: number[];
  /** Whether the 1-minute load was under QUIET_LOAD as the run started. */
  quiet: boolean;
}

export interface ResultsFile {
  measuredAt: string;
  machine: Machine;
  load: Load;
  sizes: { clusterNodes: readonly number[]; rounds: number };
  /** How many figures with a limit were over it. */
  overLimit: number;
  results: Record<string, Record<string, RecordedFigure>>;
}

export function thisMachine(): Machine {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}

export const loadNow = () => loadavg().map((load) => Number(load.toFixed(2)));

export const isQuiet = (loadAtStart: readonly number[]) =>
  (loadAtStart[0] ?? Number.POSITIVE_INFINITY) < QUIET_LOAD;

export function recordFigure(entry: Figures[string]): RecordedFigure {
  const figure = asFigure(entry);
  const ok = withinLimit(figure);
  return ok === undefined ? figure : { ...figure, ok };
}

/** How a limit reads in the bench's output: ` (limit <= 1.3)`, or nothing. */
export function limitText(figure: Figure): string {
  if (figure.atMost !== undefined) return ` (limit <= ${figure.atMost})`;
  if (figure.atLeast !== undefined) return ` (limit >= ${figure.atLeast})`;
  return '';
}

/**
 * The whole file from one run's sections and nothing else: no section of an older run survives
 * into it, so every figure in it was measured on the machine and under the load it records.
 */
export function resultsFile(run: {
  measuredAt: Date;
  machine: Machine;
  loadAtStart: number[];
  loadAtEnd: number[];
  sizes: ResultsFile['sizes'];
  results: ResultsFile['results'];
}): ResultsFile {
  const overLimit = Object.values(run.results)
    .flatMap((section) => Object.values(section))
    .filter((figure) => figure.ok === false).length;
  return {
    measuredAt: run.measuredAt.toISOString(),
    machine: run.machine,
    load: { atStart: run.loadAtStart, atEnd: run.loadAtEnd, quiet: isQuiet(run.loadAtStart) },
    sizes: run.sizes,
    overLimit,
    results: run.results,
  };
}
