import { describe, expect, it } from 'vitest';
import { hostMarkState } from '../../../runbooks/host-identity/host-mark.ts';
import { IptablesSaveError, parseIptablesSave } from '../../../runbooks/host-identity/index.ts';
import { emptyTable, filterTable, LEGACY_HEADER, NFT_HEADER, WRAPPER_NFT_HEADER } from './fixtures.ts';

describe('parseIptablesSave', () => {
  it('reads tables, chains with policy and counters, and rules with comment, target and target args', () => {
    const save = parseIptablesSave(filterTable({ hostMark: 'v1.16' }));
    const filter = save.tables.get('filter');
    expect([...(filter?.chains.keys() ?? [])]).toEqual([
      'INPUT',
      'FORWARD',
      'OUTPUT',
      'CILIUM_FORWARD',
      'CILIUM_INPUT',
      'CILIUM_OUTPUT',
      'KUBE-FIREWALL',
      'KUBE-KUBELET-CANARY',
    ]);
    expect(filter?.chains.get('INPUT')).toMatchObject({
      policy: 'ACCEPT',
      counters: { packets: 48213, bytes: 91235512 },
    });
    expect(filter?.chains.get('CILIUM_OUTPUT')?.policy).toBe('-');
    const [proxyReturn, hostMark] = filter?.chains.get('CILIUM_OUTPUT')?.rules ?? [];
    expect(proxyReturn?.comment).toBe('cilium: ACCEPT for proxy return traffic');
    expect(hostMark).toMatchObject({
      chain: 'CILIUM_OUTPUT',
      comment: 'cilium: host->any mark as from host',
      target: 'MARK',
      targetArgs: ['--set-xmark', '0xc00/0xf00'],
    });
    expect(hostMark?.text.startsWith('-A CILIUM_OUTPUT -m mark ! --mark 0xe00/0xf00')).toBe(true);
    expect(hostMark?.counters).toBeUndefined();
  });

  it.each([
    ['the nft tool', NFT_HEADER, 'nft', 'iptables-nft-save v1.8.10 (nf_tables)'],
    ['the wrapper over nft', WRAPPER_NFT_HEADER, 'nft', 'iptables-save v1.8.9 (nf_tables)'],
    ['the legacy tool', LEGACY_HEADER, 'legacy', 'iptables-save v1.8.8'],
  ])('tells the backend from the header of %s', (_name, header, backend, generatedBy) => {
    const save = parseIptablesSave(filterTable({ header }));
    expect(save.backend).toBe(backend);
    expect(save.generatedBy).toBe(generatedBy);
  });

  it('accepts output without a header, CRLF line ends and the nft tool warning comment', () => {
    const text = `${filterTable().split('\n').slice(1).join('\r\n')}# Warning: iptables-legacy tables present, use iptables-legacy-save to see them\n`;
    const save = parseIptablesSave(text);
    expect(save.backend).toBeUndefined();
    expect(save.tables.get('filter')?.chains.get('OUTPUT')?.rules).toHaveLength(2);
  });

  it('reads rule counters from `iptables-save -c`', () => {
    const save = parseIptablesSave(filterTable({ ruleCounters: true, hostMark: 'v1.14' }));
    const rules = save.tables.get('filter')?.chains.get('CILIUM_OUTPUT')?.rules ?? [];
    expect(rules.map((r) => r.counters)).toEqual([
      { packets: 42, bytes: 2520 },
      { packets: 49, bytes: 2940 },
    ]);
    expect(rules[1]?.text.startsWith('-A CILIUM_OUTPUT ')).toBe(true);
  });

  it('unquotes and unescapes comments, and reads unquoted ones', () => {
    const save = parseIptablesSave(
      filterTable({
        extraRules: [
          '-A CILIUM_INPUT -m comment --comment "say \\"hi\\" to C:\\\\tmp" -j ACCEPT',
          '-A CILIUM_INPUT -m comment --comment kube_hint-1 -j RETURN',
          '-A CILIUM_INPUT -m comment --comment "" -g KUBE-FIREWALL',
        ],
      }),
    );
    const rules = save.tables.get('filter')?.chains.get('CILIUM_INPUT')?.rules.slice(1) ?? [];
    expect(rules.map((r) => [r.comment, r.target])).toEqual([
      ['say "hi" to C:\\tmp', 'ACCEPT'],
      ['kube_hint-1', 'RETURN'],
      ['', 'KUBE-FIREWALL'],
    ]);
  });

  it('reads every table of a full save, and empty tables', () => {
    const text = [
      emptyTable('raw', ['PREROUTING', 'OUTPUT']),
      emptyTable('mangle', ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING']),
      filterTable({ header: LEGACY_HEADER }),
    ].join('');
    const save = parseIptablesSave(text);
    expect([...save.tables.keys()]).toEqual(['raw', 'mangle', 'filter']);
    expect(save.tables.get('raw')?.chains.get('OUTPUT')?.rules).toEqual([]);
    expect(save.backend).toBe('legacy');
  });

  it.each([
    ['empty output', '', /printed nothing/],
    ['blank lines', '\n  \n', /printed nothing/],
    ['only comments', `${NFT_HEADER}\n`, /no tables/],
    ['a table cut short', filterTable().split('COMMIT')[0] as string, /table filter has no COMMIT/],
    [
      'an error message',
      'iptables-save: command not found\n',
      /line 1 .*"iptables-save: command not found".*neither a chain, a rule nor COMMIT/,
    ],
    ['a table without COMMIT before the next', '*filter\n:INPUT ACCEPT [0:0]\n*nat\nCOMMIT\n', /line 3/],
    [
      'a rule for an undeclared chain',
      '*filter\n-A CILIUM_OUTPUT -j ACCEPT\nCOMMIT\n',
      /undeclared chain CILIUM_OUTPUT/,
    ],
    [
      'an unterminated quote',
      '*filter\n:OUTPUT ACCEPT [0:0]\n-A OUTPUT -m comment --comment "x -j A\nCOMMIT\n',
      /unterminated quote/,
    ],
    ['a bad chain line', '*filter\n:OUTPUT ACCEPT\nCOMMIT\n', /line 2 .*neither a chain, a rule nor COMMIT/],
    ['a table twice', '*filter\nCOMMIT\n*filter\nCOMMIT\n', /appears twice/],
    ['a bad table name', '*fil ter\nCOMMIT\n', /bad table name/],
  ])('throws a clear error on %s', (_name, text, message) => {
    expect(() => parseIptablesSave(text)).toThrow(IptablesSaveError);
    expect(() => parseIptablesSave(text)).toThrow(message);
  });
});

describe('parseIptablesSave on headless output', () => {
  const GREPPED = [
    ':CILIUM_OUTPUT - [0:0]',
    ':CILIUM_OUTPUT_raw - [0:0]',
    '-A OUTPUT -m comment --comment "cilium-feeder: CILIUM_OUTPUT" -j CILIUM_OUTPUT',
    '-A OUTPUT -m comment --comment "cilium-feeder: CILIUM_OUTPUT_raw" -j CILIUM_OUTPUT_raw',
    '-A CILIUM_OUTPUT -m mark ! --mark 0xe00/0xf00 -m mark ! --mark 0xd00/0xf00 -m mark ! --mark 0xa00/0xe00 -m comment --comment "cilium: host->any mark as from host" -j MARK --set-xmark 0xc00/0xf00',
    '-A CILIUM_OUTPUT_raw -o lxc+ -m mark --mark 0xa00/0xfffffeff -m comment --comment "cilium: NOTRACK for proxy return traffic" -j CT --notrack',
  ].join('\n');

  it('reads `iptables-save | grep CILIUM`, telling tables by chain names', () => {
    const save = parseIptablesSave(`${GREPPED}\n`);
    expect(save.headless).toBe(true);
    expect(hostMarkState(save)).toBe('present');
    expect([...(save.tables.get('raw')?.chains.keys() ?? [])].sort()).toEqual([
      'CILIUM_OUTPUT_raw',
      'OUTPUT',
    ]);
  });

  it('reads `iptables -S`, but never calls the rule missing from headless output', () => {
    const spec = [
      '-P INPUT ACCEPT',
      '-P OUTPUT ACCEPT',
      '-N CILIUM_OUTPUT',
      '-A OUTPUT -m comment --comment "cilium-feeder: CILIUM_OUTPUT" -j CILIUM_OUTPUT',
    ].join('\n');
    const save = parseIptablesSave(spec);
    expect(save.tables.get('filter')?.chains.get('OUTPUT')?.policy).toBe('ACCEPT');
    expect(() => hostMarkState(save)).toThrow(/cannot show it is missing: not checked/);
  });

  it('names the line of a listing it cannot read (iptables -L)', () => {
    expect(() =>
      parseIptablesSave('Chain CILIUM_OUTPUT (1 references)\ntarget prot opt source destination\n'),
    ).toThrow(/line 1 \("Chain CILIUM_OUTPUT \(1 references\)"\): neither a chain, a rule nor COMMIT/);
  });
});
