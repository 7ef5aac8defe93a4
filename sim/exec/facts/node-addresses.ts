import { R, type SimCluster } from '../../cluster.ts';
import type { KubeObject } from '../../objects.ts';
import { stableNumber } from '../format/hash.ts';

export interface NodeAddresses {
  /** The node's InternalIP: cilium-health's "host" address. */
  internalIP: string;
  /** The cilium-health endpoint's IP on that node. */
  healthIP: string;
  /** cilium_host's address (CiliumInternalIP). */
  ciliumInternalIP: string;
}

interface NodeObject extends KubeObject {
  status?: { addresses?: { type: string; address: string }[] };
}

interface CiliumNodeObject extends KubeObject {
  spec?: { addresses?: { type: string; ip: string }[]; health?: { ipv4?: string } };
}

/**
 * A node's addresses from its Node and CiliumNode objects, as the scenario built them. Anything
 * missing is derived from the node name (EKS names encode the IP, `ip-10-0-1-23.<region>...`) so
 * every node has stable, distinct addresses even in a bare fixture.
 */
export function nodeAddresses(cluster: SimCluster, nodeName: string): NodeAddresses {
  const node = cluster.store.get<NodeObject>(R.nodes, undefined, nodeName);
  const ciliumNode = cluster.store.get<CiliumNodeObject>(R.ciliumnodes, undefined, nodeName);
  const ciliumAddress = (type: string) => ciliumNode?.spec?.addresses?.find((a) => a.type === type)?.ip;
  const internalIP =
    node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ??
    ciliumAddress('InternalIP') ??
    derivedInternalIP(nodeName);
  const octets = internalIP.split('.').map(Number);
  const shifted = (by: number) =>
    octets.length === 4
      ? `${octets[0]}.${((octets[1] as number) + by) % 256}.${octets[2]}.${octets[3]}`
      : internalIP;
  return {
    internalIP,
    healthIP: ciliumNode?.spec?.health?.ipv4 ?? shifted(64),
    ciliumInternalIP: ciliumAddress('CiliumInternalIP') ?? shifted(128),
  };
}

function derivedInternalIP(nodeName: string): string {
  const encoded = /^ip-(\d+)-(\d+)-(\d+)-(\d+)(\.|$)/.exec(nodeName);
  if (encoded) return encoded.slice(1, 5).join('.');
  const h = stableNumber(nodeName);
  return `10.0.${(h >>> 8) % 250}.${(h % 250) + 4}`;
}
