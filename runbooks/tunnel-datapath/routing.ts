/**
 * How the agents route pod traffic between nodes, from cilium-config. Since Cilium 1.14:
 * `routing-mode` (tunnel|native) and `tunnel-protocol` (vxlan|geneve); before: one `tunnel` key
 * (vxlan|geneve|disabled). With neither, ENI IPAM routes natively and everything else tunnels
 * over VXLAN. `tunnel-port` 0 or unset means the protocol's default port.
 */

export type TunnelProtocol = 'vxlan' | 'geneve';

export type Routing =
  | { mode: 'native'; reason: string }
  | { mode: 'tunnel'; protocol: TunnelProtocol; port: number };

export const DEFAULT_TUNNEL_PORT: Record<TunnelProtocol, number> = { vxlan: 8472, geneve: 6081 };

/** The cilium-config keys that decide routing, for evidence. */
export const ROUTING_KEYS = ['routing-mode', 'tunnel', 'tunnel-protocol', 'tunnel-port', 'ipam'] as const;

export function parseRouting(config: Readonly<Record<string, string>>): Routing {
  const routingMode = config['routing-mode'] || undefined;
  const legacyTunnel = config.tunnel || undefined;
  if (routingMode !== undefined && routingMode !== 'tunnel' && routingMode !== 'native') {
    throw new Error(`cilium-config routing-mode is "${routingMode}", expected tunnel or native`);
  }
  if (legacyTunnel !== undefined && !['vxlan', 'geneve', 'disabled'].includes(legacyTunnel)) {
    throw new Error(`cilium-config tunnel is "${legacyTunnel}", expected vxlan, geneve or disabled`);
  }
  if (routingMode === 'native') return { mode: 'native', reason: 'routing-mode=native' };
  if (routingMode === undefined && legacyTunnel === 'disabled')
    return { mode: 'native', reason: 'tunnel=disabled' };
  if (routingMode === undefined && legacyTunnel === undefined && config.ipam === 'eni') {
    return { mode: 'native', reason: 'ipam=eni (ENI mode routes natively)' };
  }
  const protocol = tunnelProtocol(
    config['tunnel-protocol'] || (legacyTunnel !== 'disabled' ? legacyTunnel : undefined),
  );
  return { mode: 'tunnel', protocol, port: tunnelPort(config['tunnel-port'], protocol) };
}

function tunnelProtocol(value: string | undefined): TunnelProtocol {
  if (value === undefined || value === 'vxlan' || value === 'geneve') return value ?? 'vxlan';
  throw new Error(`cilium-config tunnel-protocol is "${value}", expected vxlan or geneve`);
}

function tunnelPort(value: string | undefined, protocol: TunnelProtocol): number {
  if (value === undefined || value === '' || value === '0') return DEFAULT_TUNNEL_PORT[protocol];
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`cilium-config tunnel-port is "${value}", expected a port number`);
  }
  return port;
}

/** e.g. `udp/8472 (VXLAN)`. */
export function describeTunnel(routing: Extract<Routing, { mode: 'tunnel' }>): string {
  return `udp/${routing.port} (${routing.protocol === 'vxlan' ? 'VXLAN' : 'Geneve'})`;
}
