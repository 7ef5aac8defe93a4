import { describe, expect, it } from 'vitest';
import { ciliumOutputLines, hostMarkState } from '../../../runbooks/host-identity/host-mark.ts';
import {
  hasHostMarkRule,
  hasOutputFeeder,
  parseIptablesSave,
} from '../../../runbooks/host-identity/index.ts';
import {
  emptyTable,
  type FilterOptions,
  filterTable,
  hostMarkRule,
  LEGACY_HEADER,
  type MarkVariant,
  NFT_HEADER,
} from './fixtures.ts';

const save = (options: FilterOptions) => parseIptablesSave(filterTable(options));

describe('host mark rule', () => {
  const variants: MarkVariant[] = ['v1.14', 'v1.16'];
  const headers = [
    ['nft', NFT_HEADER],
    ['legacy', LEGACY_HEADER],
  ];
  for (const variant of variants) {
    for (const [backend, header] of headers) {
      it(`is found with the ${variant} excluded marks on ${backend}, with and without counters`, () => {
        for (const ruleCounters of [false, true]) {
          const parsed = save({ header, hostMark: variant, ruleCounters });
          expect(hasHostMarkRule(parsed)).toBe(true);
          expect(hasOutputFeeder(parsed)).toBe(true);
          expect(hostMarkState(parsed)).toBe('present');
        }
      });
    }
  }

  it('is missing when install-iptables-rules was false but the chains exist', () => {
    const parsed = save({});
    expect(hasHostMarkRule(parsed)).toBe(false);
    expect(hostMarkState(parsed)).toBe('rule-missing');
    expect(ciliumOutputLines(parsed)).toEqual([
      ':CILIUM_OUTPUT - [0:0]',
      '-A CILIUM_OUTPUT -m mark --mark 0xa00/0xfffffeff -m comment --comment "cilium: ACCEPT for proxy return traffic" -j ACCEPT',
    ]);
  });

  it('says when Cilium installed no chains at all, or the table is empty', () => {
    expect(hostMarkState(save({ ciliumChains: false }))).toBe('no-cilium-chains');
    const empty = parseIptablesSave(emptyTable('filter', ['INPUT', 'FORWARD', 'OUTPUT']));
    expect(hostMarkState(empty)).toBe('no-cilium-chains');
    expect(hasHostMarkRule(empty)).toBe(false);
    expect(ciliumOutputLines(empty)).toEqual([]);
  });

  it('is not effective without the OUTPUT feeder', () => {
    const parsed = save({ hostMark: 'v1.16', feeder: false });
    expect(hasHostMarkRule(parsed)).toBe(true);
    expect(hasOutputFeeder(parsed)).toBe(false);
    expect(hostMarkState(parsed)).toBe('feeder-missing');
  });

  it.each([
    ['another mark', hostMarkRule('v1.16', '0xd00/0xf00')],
    ['another comment', hostMarkRule('v1.16').replace('as from host', 'as from proxy')],
    ['another target', hostMarkRule('v1.16').replace('-j MARK', '-j CONNMARK')],
    ['another chain', hostMarkRule('v1.16').replace('-A CILIUM_OUTPUT', '-A CILIUM_INPUT')],
  ])('does not take a rule with %s for it', (_name, rule) => {
    expect(hasHostMarkRule(save({ extraRules: [rule] }))).toBe(false);
  });

  it('matches the mark by value, however it is padded', () => {
    expect(hasHostMarkRule(save({ extraRules: [hostMarkRule('v1.14', '0x00000C00/0x00000F00')] }))).toBe(
      true,
    );
  });

  it('looks only in the filter table', () => {
    const mangle = filterTable({ hostMark: 'v1.16' }).replace('*filter', '*mangle');
    expect(hasHostMarkRule(parseIptablesSave(mangle))).toBe(false);
  });
});
