import type { AgentState, IptablesBackend } from '../../../agent-state.ts';

export type TableName = 'raw' | 'mangle' | 'filter' | 'nat' | 'security';

export interface Table {
  name: TableName;
  builtinChains: string[];
  userChains: string[];
  /** `-A CHAIN ...` lines in chain order, as iptables-save prints them. */
  rules: string[];
}

export const BUILTIN_CHAINS: Record<TableName, string[]> = {
  raw: ['PREROUTING', 'OUTPUT'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  security: ['INPUT', 'FORWARD', 'OUTPUT'],
};

/**
 * The marks Cilium excludes before marking host traffic (pkg/datapath/iptables): IPsec decrypt
 * and encrypt, proxy and proxy-with-endpoint-id; 1.16 adds the overlay and DNS-proxy marks.
 */
const EXCLUDED_MARKS: Record<AgentState['iptables']['markRuleVariant'], string[]> = {
  'v1.14': ['0xe00/0xf00', '0xd00/0xf00', '0xa00/0xe00', '0x800/0xe00'],
  'v1.16': ['0xe00/0xf00', '0xd00/0xf00', '0x400/0xf00', '0xa00/0xe00', '0x800/0xe00', '0xf00/0xf00'],
};

const HOST_MARK_COMMENT = 'cilium: host->any mark as from host';

function feeder(builtin: string, chain: string): string {
  return `-A ${builtin} -m comment --comment "cilium-feeder: ${chain}" -j ${chain}`;
}

function hostMarkRule(variant: AgentState['iptables']['markRuleVariant']): string {
  const exclusions = EXCLUDED_MARKS[variant].map((mark) => `-m mark ! --mark ${mark}`).join(' ');
  return `-A CILIUM_OUTPUT ${exclusions} -m comment --comment "${HOST_MARK_COMMENT}" -j MARK --set-xmark 0xc00/0xf00`;
}

/** Cilium's chains per table (installed by the agent unless install-iptables-rules=false). */
function ciliumTable(name: TableName, agent: AgentState): Pick<Table, 'userChains' | 'rules'> {
  switch (name) {
    case 'filter':
      return {
        userChains: ['CILIUM_FORWARD', 'CILIUM_INPUT', 'CILIUM_OUTPUT'],
        rules: [
          feeder('INPUT', 'CILIUM_INPUT'),
          feeder('FORWARD', 'CILIUM_FORWARD'),
          feeder('OUTPUT', 'CILIUM_OUTPUT'),
          '-A CILIUM_FORWARD -o cilium_host -m comment --comment "cilium: any->cluster on cilium_host forward accept" -j ACCEPT',
          '-A CILIUM_FORWARD -i cilium_host -m comment --comment "cilium: cluster->any on cilium_host forward accept (nodeport)" -j ACCEPT',
          '-A CILIUM_FORWARD -i lxc+ -m comment --comment "cilium: cluster->any on lxc+ forward accept" -j ACCEPT',
          '-A CILIUM_FORWARD -i cilium_net -m comment --comment "cilium: cluster->any on cilium_net forward accept (nodeport)" -j ACCEPT',
          '-A CILIUM_INPUT -m mark --mark 0x200/0xf00 -m comment --comment "cilium: ACCEPT for proxy traffic" -j ACCEPT',
          '-A CILIUM_OUTPUT -m mark --mark 0xa00/0xfffffeff -m comment --comment "cilium: ACCEPT for proxy return traffic" -j ACCEPT',
          '-A CILIUM_OUTPUT -m mark --mark 0x800/0xe00 -m comment --comment "cilium: ACCEPT for l7 proxy upstream traffic" -j ACCEPT',
          ...(agent.iptables.hostMarkRule ? [hostMarkRule(agent.iptables.markRuleVariant)] : []),
        ],
      };
    case 'nat':
      return {
        userChains: ['CILIUM_OUTPUT_nat', 'CILIUM_POST_nat', 'CILIUM_PRE_nat'],
        rules: [
          feeder('PREROUTING', 'CILIUM_PRE_nat'),
          feeder('OUTPUT', 'CILIUM_OUTPUT_nat'),
          feeder('POSTROUTING', 'CILIUM_POST_nat'),
        ],
      };
    case 'mangle':
      return {
        userChains: ['CILIUM_POST_mangle', 'CILIUM_PRE_mangle'],
        rules: [
          feeder('PREROUTING', 'CILIUM_PRE_mangle'),
          feeder('POSTROUTING', 'CILIUM_POST_mangle'),
          '-A CILIUM_PRE_mangle ! -o lo -m socket --transparent -m mark ! --mark 0xe00/0xf00 -m mark ! --mark 0x800/0xf00 -m comment --comment "cilium: any->pod redirect proxied traffic to host proxy" -j MARK --set-xmark 0x200/0xffffffff',
        ],
      };
    case 'raw':
      return {
        userChains: ['CILIUM_OUTPUT_raw', 'CILIUM_PRE_raw'],
        rules: [
          feeder('PREROUTING', 'CILIUM_PRE_raw'),
          feeder('OUTPUT', 'CILIUM_OUTPUT_raw'),
          '-A CILIUM_OUTPUT_raw -o lxc+ -m mark --mark 0xa00/0xfffffeff -m comment --comment "cilium: NOTRACK for proxy return traffic" -j CT --notrack',
          '-A CILIUM_PRE_raw -m mark --mark 0x200/0xf00 -m comment --comment "cilium: NOTRACK for proxy traffic" -j CT --notrack',
        ],
      };
    case 'security':
      return { userChains: [], rules: [] };
  }
}

/** kubelet's chains: the canary in every table it watches, the hint the iptables wrappers look for, and KUBE-FIREWALL. */
function kubeletTable(name: TableName): Pick<Table, 'userChains' | 'rules'> {
  switch (name) {
    case 'filter':
      return {
        userChains: ['KUBE-FIREWALL', 'KUBE-KUBELET-CANARY'],
        rules: [
          '-A INPUT -j KUBE-FIREWALL',
          '-A OUTPUT -j KUBE-FIREWALL',
          '-A KUBE-FIREWALL ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
        ],
      };
    case 'nat':
      return { userChains: ['KUBE-KUBELET-CANARY'], rules: [] };
    case 'mangle':
      return { userChains: ['KUBE-IPTABLES-HINT', 'KUBE-KUBELET-CANARY'], rules: [] };
    default:
      return { userChains: [], rules: [] };
  }
}

/**
 * The tables a backend holds on the agent's node, in the order its save tool lists them. The
 * backend the node uses holds kubelet's chains and (unless disabled) Cilium's; the other holds
 * nothing, so its save prints nothing unless a table is named (legacy then creates it empty).
 */
export function backendTables(agent: AgentState, backend: IptablesBackend): Table[] {
  if (backend !== agent.iptables.backend) return [];
  // nft lists tables in its own fixed order; legacy lists the newest first (the kernel prepends
  // each table to its list when first used): kubelet made mangle, filter, nat, then Cilium raw.
  const names: TableName[] =
    backend === 'nft' ? ['mangle', 'raw', 'filter', 'nat'] : ['raw', 'nat', 'filter', 'mangle'];
  return names
    .filter((name) => name !== 'raw' || agent.iptables.ciliumChains)
    .map((name) => {
      const cilium = agent.iptables.ciliumChains ? ciliumTable(name, agent) : { userChains: [], rules: [] };
      const kubelet = kubeletTable(name);
      return {
        name,
        builtinChains: BUILTIN_CHAINS[name],
        userChains: [...cilium.userChains, ...kubelet.userChains].sort(),
        rules: orderByChain([...cilium.rules, ...kubelet.rules], BUILTIN_CHAINS[name]),
      };
    });
}

/** iptables-save prints rules chain by chain: built-in chains first, then user chains by name. */
function orderByChain(rules: string[], builtins: string[]): string[] {
  const key = (rule: string): [number, string] => {
    const chain = rule.split(' ')[1] as string;
    const builtin = builtins.indexOf(chain);
    return builtin >= 0 ? [builtin, ''] : [builtins.length, chain];
  };
  return rules
    .map((rule, index) => ({ rule, index, key: key(rule) }))
    .sort((a, b) => a.key[0] - b.key[0] || compare(a.key[1], b.key[1]) || a.index - b.index)
    .map((entry) => entry.rule);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
