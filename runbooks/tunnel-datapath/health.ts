import * as z from 'zod';
import { zodProblem } from '../../sdk/index.ts';

/**
 * `cilium-health status -o json` (api/v1/health/models HealthStatusResponse), parsed. Each node is
 * probed on its host address and on its health endpoint (a pod address, so in tunnel mode those
 * probes ride the tunnel). Go's omitempty drops `status` when a probe succeeded; a failed probe
 * carries the error string. A probe object that is absent was not run.
 */

export interface ProbeResult {
  ok: boolean;
  /** The prober's error when not ok, e.g. `Connection timed out`. */
  error?: string;
}

export interface PathHealth {
  ip: string;
  /** Absent when cilium-health has not run this probe. */
  icmp?: ProbeResult;
  http?: ProbeResult;
}

export interface NodeHealth {
  /** Cilium's full name, `<cluster>/<node>`. */
  name: string;
  /** The Kubernetes node name for nodes of the local cluster; the full name for cluster-mesh peers. */
  node: string;
  host?: PathHealth;
  /** Absent when endpoint health checking is off (or on agents that have not created the endpoint). */
  endpoint?: PathHealth;
}

export interface HealthReport {
  /** The reporting node, as `node` above. */
  local?: string;
  /** Every node cilium-health knows, the local one included. */
  nodes: NodeHealth[];
}

const connectivity = z.object({ status: z.string().nullish() });
const path = z.object({
  ip: z.string().nullish(),
  icmp: connectivity.nullish(),
  http: connectivity.nullish(),
});
const addressed = z.object({ 'primary-address': path.nullish() });
const nodeStatus = z.object({
  name: z.string().min(1),
  host: addressed.nullish(),
  'health-endpoint': addressed.nullish(),
  /** Deprecated twin of `health-endpoint.primary-address`, the only one older agents print. */
  endpoint: path.nullish(),
});
const response = z.object({
  local: z.object({ name: z.string().nullish() }).nullish(),
  // Go marshals an empty slice that was never filled as null.
  nodes: z.array(nodeStatus).nullable(),
});

const COMMAND = 'cilium-health status -o json';

/** Thrown for output that is not a health status response: a step error, never a healthy result. */
export class HealthOutputError extends Error {
  constructor(detail: string) {
    super(`${COMMAND}: ${detail}`);
    this.name = 'HealthOutputError';
  }
}

export function parseCiliumHealth(output: string): HealthReport {
  if (output.trim() === '') throw new HealthOutputError('empty output');
  let json: unknown;
  try {
    json = JSON.parse(output);
  } catch (error) {
    throw new HealthOutputError(`output is not JSON (${(error as Error).message})`);
  }
  const parsed = response.safeParse(json);
  if (!parsed.success)
    throw new HealthOutputError(`not a health status response (${zodProblem(parsed.error)})`);
  const localName = parsed.data.local?.name ?? undefined;
  const clusterPrefix = localName?.includes('/') ? `${localName.slice(0, localName.indexOf('/'))}/` : '';
  const shortName = (name: string) =>
    clusterPrefix && name.startsWith(clusterPrefix) ? name.slice(clusterPrefix.length) : name;
  return {
    local: localName ? shortName(localName) : undefined,
    nodes: (parsed.data.nodes ?? []).map((node) => ({
      name: node.name,
      node: shortName(node.name),
      host: pathHealth(node.host?.['primary-address']),
      endpoint: pathHealth(node['health-endpoint']?.['primary-address'] ?? node.endpoint),
    })),
  };
}

function pathHealth(raw: z.infer<typeof path> | null | undefined): PathHealth | undefined {
  if (!raw) return undefined;
  return { ip: raw.ip ?? '', icmp: probe(raw.icmp), http: probe(raw.http) };
}

function probe(raw: z.infer<typeof connectivity> | null | undefined): ProbeResult | undefined {
  if (!raw) return undefined;
  return raw.status ? { ok: false, error: raw.status } : { ok: true };
}
