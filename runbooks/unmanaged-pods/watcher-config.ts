import { type LabelMatcher, parseLabelSelector } from '../../sdk/index.ts';

/** cilium-config keys of the operator's own unmanaged-pod watcher (incident 1: runbooks/unmanaged-pods/README.md). */
export const INTERVAL_KEY = 'unmanaged-pod-watcher-interval';
export const SELECTOR_KEY = 'pod-restart-selector';
/** What the operator uses when the keys are absent. */
const DEFAULT_INTERVAL_SECONDS = 15;
const DEFAULT_SELECTOR = 'k8s-app=kube-dns';

/** Seconds per Go duration unit (time.ParseDuration accepts both spellings of micro). */
const UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};
const GO_DURATION =
  /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))*$/;
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/**
 * The interval in seconds: bare seconds (`15`, what older charts write) or a Go duration (`15s`,
 * `1m30s`); `0` means off. Undefined when the text is neither.
 */
export function parseWatcherInterval(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value);
  if (!GO_DURATION.test(value)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(DURATION_PART)) {
    seconds += Number(amount) * (UNIT_SECONDS[unit as string] ?? 0);
  }
  return value.startsWith('-') ? -seconds : seconds;
}

export type IntervalSetting =
  | { ok: true; text: string; seconds: number; fromDefault: boolean }
  | { ok: false; text: string; problem: string; fromDefault: false };

export type SelectorSetting =
  | { ok: true; text: string; matches: LabelMatcher; fromDefault: boolean }
  | { ok: false; text: string; problem: string; fromDefault: false };

export interface WatcherConfig {
  interval: IntervalSetting;
  selector: SelectorSetting;
}

function intervalSetting(raw: string | undefined): IntervalSetting {
  if (raw === undefined)
    return {
      ok: true,
      text: `${DEFAULT_INTERVAL_SECONDS}s`,
      seconds: DEFAULT_INTERVAL_SECONDS,
      fromDefault: true,
    };
  const seconds = parseWatcherInterval(raw);
  const invalid = (problem: string) => ({ ok: false, text: raw, problem, fromDefault: false }) as const;
  if (seconds === undefined) return invalid('is neither whole seconds (15) nor a duration (15s)');
  if (seconds < 0) return invalid('is negative');
  return { ok: true, text: raw, seconds, fromDefault: false };
}

function selectorSetting(raw: string | undefined): SelectorSetting {
  const text = raw ?? DEFAULT_SELECTOR;
  try {
    // An empty selector is valid: the operator then restarts every unmanaged pod.
    return { ok: true, text, matches: parseLabelSelector(text), fromDefault: raw === undefined };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, text, problem: `is not a label selector: ${reason}`, fromDefault: false };
  }
}

/** The watcher's settings as the operator reads them from cilium-config, defaults filled in. */
export function watcherConfig(data: Readonly<Record<string, string>>): WatcherConfig {
  return { interval: intervalSetting(data[INTERVAL_KEY]), selector: selectorSetting(data[SELECTOR_KEY]) };
}
