import type { IptablesBackend } from '../../../agent-state.ts';
import type { Table, TableName } from './rules.ts';

export interface ListResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * `iptables -S [CHAIN]` of one table, as 1.8.9 prints it: `-P` for each built-in chain's policy,
 * `-N` for each user chain, then the rules in save order (the same text iptables-save prints).
 * A table the backend does not hold yet lists its built-in chains (listing creates it).
 */
export function listRules(
  table: Table | undefined,
  name: TableName,
  builtinChains: string[],
  chain: string | undefined,
  version: string,
  backend: IptablesBackend,
): ListResult {
  const userChains = table?.userChains ?? [];
  const rules = table?.rules ?? [];
  const chainLine = (c: string) => (builtinChains.includes(c) ? `-P ${c} ACCEPT` : `-N ${c}`);
  if (chain === undefined) {
    const lines = [...builtinChains.map(chainLine), ...userChains.map(chainLine), ...rules];
    return { stdout: `${lines.join('\n')}\n`, stderr: '', code: 0 };
  }
  if (!builtinChains.includes(chain) && !userChains.includes(chain)) {
    // 1.8.9's nft tool reports a missing chain with its "incompatible" message.
    const stderr =
      backend === 'nft'
        ? `iptables v${version} (nf_tables): chain \`${chain}' in table \`${name}' is incompatible, use 'nft' tool.\n`
        : 'iptables: No chain/target/match by that name.\n';
    return { stdout: '', stderr, code: 1 };
  }
  const lines = [chainLine(chain), ...rules.filter((rule) => rule.startsWith(`-A ${chain} `))];
  return { stdout: `${lines.join('\n')}\n`, stderr: '', code: 0 };
}
