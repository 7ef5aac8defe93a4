import { defineStep, type Evidence, type Finding, outcome, podKey } from '../../../sdk/index.ts';
import { CODES } from '../findings.ts';
import type { UnmanagedPodsParams } from '../params.ts';
import type { ScanSoFar, UnmanagedPod } from '../scan.ts';
import { firstScanOrPause, type UnmanagedPodsState } from '../state.ts';
import { INTERVAL_KEY, SELECTOR_KEY, type WatcherConfig, watcherConfig } from '../watcher-config.ts';
import { count, listSome } from '../wording.ts';

const CONFIG = 'cilium-config';

/** The Helm release and the operator live in the Cilium namespace. */
const helmUpgrade = (namespace: string) => `helm upgrade cilium cilium/cilium -n ${namespace} --reuse-values`;
const restartOperator = (namespace: string) =>
  `kubectl -n ${namespace} rollout restart deployment/cilium-operator`;

function settingEvidence(key: string, setting: { text: string; fromDefault: boolean }): Evidence {
  return {
    source: CONFIG,
    text: `${key}="${setting.text}"${setting.fromDefault ? ' (key absent: the default)' : ''}`,
  };
}

function invalidSettings(config: WatcherConfig, namespace: string): Finding[] {
  const findings: Finding[] = [];
  for (const [key, setting] of [
    [INTERVAL_KEY, config.interval],
    [SELECTOR_KEY, config.selector],
  ] as const) {
    if (setting.ok) continue;
    findings.push({
      code: CODES.operatorConfigInvalid,
      target: `${CONFIG}/${key}`,
      severity: 'warning',
      message: `${CONFIG} ${key}="${setting.text}" ${setting.problem}; the operator's watcher cannot use it`,
      fix: `Set a valid ${key} (see runbooks/unmanaged-pods/README.md), then: ${restartOperator(namespace)}`,
    });
  }
  return findings;
}

function disabledFinding(unmanaged: readonly UnmanagedPod[] | undefined, namespace: string): Finding {
  const now = unmanaged?.length ? `; ${unmanaged.length} unmanaged now` : '';
  return {
    code: CODES.operatorRestartDisabled,
    target: CONFIG,
    // Off is only a problem while there is something to restart.
    severity: unmanaged?.length ? 'warning' : 'info',
    message: `The operator's unmanaged-pod watcher is off (${INTERVAL_KEY}=0): nothing restarts unmanaged pods between runs${now}`,
    fix: `${helmUpgrade(namespace)} --set operator.unmanagedPodWatcher.restart=true --set operator.unmanagedPodWatcher.intervalSeconds=15`,
  };
}

function narrowFinding(
  selector: string,
  missed: readonly UnmanagedPod[],
  of: number,
  namespace: string,
): Finding {
  return {
    code: CODES.operatorSelectorNarrow,
    target: CONFIG,
    severity: 'warning',
    message: `${SELECTOR_KEY} "${selector}" misses ${missed.length} of ${of} unmanaged pods (${listSome(missed.map(podKey))}): the operator never restarts them`,
    fix: `Widen it, e.g. ${helmUpgrade(namespace)} --set-string extraConfig.${SELECTOR_KEY}='k8s-app!=aws-node', then: ${restartOperator(namespace)}`,
  };
}

/** How much of what the run found the operator would restart; nothing when there is nothing. */
function coverageText(
  unmanaged: readonly UnmanagedPod[] | undefined,
  missed: readonly UnmanagedPod[],
): string {
  if (unmanaged === undefined) return '; coverage not judged: the pod scan failed (see find-unmanaged)';
  if (unmanaged.length === 0) return '';
  const all = count(unmanaged.length, 'unmanaged pod');
  return missed.length === 0 ? `; it covers all ${all}` : `; it misses ${missed.length} of ${all}`;
}

/** Where a scan that has not finished stands. */
function pausedText(sofar: ScanSoFar): string {
  const read = sofar.namespaces - sofar.left.length;
  return `; coverage not judged: the pod scan read ${read} of ${count(sofar.namespaces, 'namespace')}, ${count(sofar.unmanaged.length, 'unmanaged pod')} so far`;
}

function pausedEvidence(sofar: ScanSoFar): Evidence[] {
  if (sofar.unmanaged.length === 0) return [];
  return [
    { source: 'pod scan so far', text: `without a CiliumEndpoint: ${listSome(sofar.unmanaged.map(podKey))}` },
  ];
}

/**
 * Step 1: is Cilium's own watcher on, and does its selector cover the unmanaged pods this run
 * finds? It takes the run's one pod scan, which the later steps share; if the scan fails, this step
 * still reports the settings and leaves the error to `find-unmanaged`, where it belongs. When the
 * invocation is ending, the scan starts no more namespaces and the step pauses with what it read;
 * the next invocation reads only the namespaces left.
 */
export const operatorWatcher = defineStep<UnmanagedPodsParams, UnmanagedPodsState>({
  id: 'operator-watcher',
  title: "Cilium operator's unmanaged-pod watcher",
  writes: false,
  async run(ctx) {
    const config = watcherConfig(await ctx.cilium.config());
    const { interval, selector } = config;
    const evidence = [settingEvidence(INTERVAL_KEY, interval), settingEvidence(SELECTOR_KEY, selector)];
    let unmanaged: UnmanagedPod[] | undefined;
    let paused: ScanSoFar | undefined;
    try {
      const scanned = await firstScanOrPause(ctx);
      if (scanned.sofar) paused = scanned.sofar;
      else unmanaged = scanned.scan.unmanaged;
    } catch (error) {
      evidence.push({ source: 'pod scan', text: error instanceof Error ? error.message : String(error) });
    }

    const { namespace } = ctx.cilium;
    const findings = invalidSettings(config, namespace);
    const off = interval.ok && interval.seconds === 0;
    if (off) findings.push(disabledFinding(unmanaged, namespace));
    const missed = selector.ok && unmanaged ? unmanaged.filter((pod) => !selector.matches(pod.labels)) : [];
    if (missed.length > 0)
      findings.push(narrowFinding(selector.text, missed, unmanaged?.length ?? 0, namespace));

    const state = !interval.ok
      ? 'interval invalid'
      : off
        ? 'watcher off'
        : `watcher on, every ${interval.seconds}s`;
    const settings = `${state}, ${SELECTOR_KEY} ${selector.text ? `"${selector.text}"` : '(empty: every pod)'}`;
    const warns = findings.some((finding) => finding.severity !== 'info');
    if (paused) {
      // The scan goes on in the run's next invocation; this is what the report says if it cannot.
      const sofar = outcome('warn', `${settings}${pausedText(paused)}`, {
        findings,
        evidence: [...evidence, ...pausedEvidence(paused)],
      });
      return ctx.pause(paused, sofar);
    }
    const summary = `${settings}${coverageText(unmanaged, missed)}`;
    return outcome(warns ? 'warn' : 'pass', summary, { findings, evidence });
  },
});
