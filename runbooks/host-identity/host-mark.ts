import { type IptablesRule, type IptablesSave, IptablesSaveError } from './iptables-save.ts';

/**
 * Cilium's rule that marks traffic leaving the host, so its datapath gives it the `host` identity
 * (pkg/datapath/iptables). The excluded-marks list before it differs between versions, so only
 * the comment and the mark identify it.
 */
const HOST_MARK_COMMENT = 'cilium: host->any mark as from host';
const OUTPUT_FEEDER_COMMENT = 'cilium-feeder: CILIUM_OUTPUT';
const HOST_MARK = { value: 0xc00, mask: 0xf00 };

/** `0xc00/0xf00` (or `0x00000c00/0x00000f00`) as numbers. */
function parseMark(text: string | undefined): { value: number; mask: number } | undefined {
  const match = /^(0x[0-9a-f]+)\/(0x[0-9a-f]+)$/i.exec(text ?? '');
  return match ? { value: Number(match[1]), mask: Number(match[2]) } : undefined;
}

function isHostMarkRule(rule: IptablesRule): boolean {
  if (rule.comment !== HOST_MARK_COMMENT || rule.target !== 'MARK') return false;
  const flag = rule.targetArgs.indexOf('--set-xmark');
  const mark = parseMark(rule.targetArgs[flag + 1]);
  return flag >= 0 && mark?.value === HOST_MARK.value && mark.mask === HOST_MARK.mask;
}

function filterChain(save: IptablesSave, chain: string) {
  return save.tables.get('filter')?.chains.get(chain);
}

/** The filter table's CILIUM_OUTPUT chain holds the host mark rule. */
export function hasHostMarkRule(save: IptablesSave): boolean {
  return filterChain(save, 'CILIUM_OUTPUT')?.rules.some(isHostMarkRule) ?? false;
}

/** OUTPUT jumps to CILIUM_OUTPUT; without it the host mark rule never sees a packet. */
export function hasOutputFeeder(save: IptablesSave): boolean {
  return (
    filterChain(save, 'OUTPUT')?.rules.some(
      (rule) => rule.comment === OUTPUT_FEEDER_COMMENT && rule.target === 'CILIUM_OUTPUT',
    ) ?? false
  );
}

/** The CILIUM_OUTPUT chain as printed (declaration and rules), for a report's evidence. */
export function ciliumOutputLines(save: IptablesSave): string[] {
  const chain = filterChain(save, 'CILIUM_OUTPUT');
  if (!chain) return [];
  return [
    `:${chain.name} ${chain.policy} [${chain.counters.packets}:${chain.counters.bytes}]`,
    ...chain.rules.map((r) => r.text),
  ];
}

export type HostMarkState = 'present' | 'rule-missing' | 'feeder-missing' | 'no-cilium-chains';

/**
 * Whether host traffic gets the host mark, and if not, what is missing. Headless output (grepped,
 * `iptables -S`, a paste) can show the rule but never prove it absent: it may be cut short or
 * filtered, so a rule it lacks is not checked (an error), never "missing".
 */
export function hostMarkState(save: IptablesSave): HostMarkState {
  if (save.headless && !hasHostMarkRule(save))
    throw new IptablesSaveError(
      'headless output (no table headers) without the host mark rule cannot show it is missing: not checked',
    );
  if (!filterChain(save, 'CILIUM_OUTPUT')) return 'no-cilium-chains';
  if (!hasHostMarkRule(save)) return 'rule-missing';
  if (hasOutputFeeder(save)) return 'present';
  // `iptables -S CILIUM_OUTPUT` lists that chain alone: the feeder is in OUTPUT, which it does not show.
  if (save.headless && !filterChain(save, 'OUTPUT'))
    throw new IptablesSaveError(
      'headless output without the OUTPUT chain cannot show the feeder rule: not checked',
    );
  return 'feeder-missing';
}
