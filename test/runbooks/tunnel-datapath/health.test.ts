import { describe, expect, it } from 'vitest';
import { parseCiliumHealth } from '../../../runbooks/tunnel-datapath/index.ts';

const PROBED = '2025-09-01T11:59:30Z';
const OK = { lastProbed: PROBED, latency: 412_345 };
const TIMEOUT = 'Connection timed out';
const HTTP_TIMEOUT =
  'Get "http://10.0.2.17:4240/hello": context deadline exceeded (Client.Timeout exceeded while awaiting headers)';

type Probe = { lastProbed: string; latency?: number; status?: string };

function path(ip: string, icmp: Probe = OK, http: Probe = OK) {
  return { http, icmp, ip };
}

function node(name: string, host = path('10.0.2.17'), endpoint = path('10.64.2.9')) {
  return {
    endpoint,
    'health-endpoint': { 'primary-address': endpoint, 'secondary-addresses': [] },
    host: { 'primary-address': host, 'secondary-addresses': [] },
    name: `default/${name}`,
  };
}

function response(nodes: unknown) {
  return JSON.stringify(
    { local: { name: 'default/ip-10-0-1-5' }, nodes, probeInterval: '1m49.86s', timestamp: PROBED },
    null,
    2,
  );
}

const failed = (status: string): Probe => ({ lastProbed: PROBED, status });

describe('parseCiliumHealth', () => {
  it('reads a cluster where every probe succeeded (status omitted)', () => {
    const report = parseCiliumHealth(response([node('ip-10-0-1-5', path('10.0.1.5')), node('ip-10-0-2-17')]));
    expect(report.local).toBe('ip-10-0-1-5');
    expect(report.nodes).toEqual([
      {
        name: 'default/ip-10-0-1-5',
        node: 'ip-10-0-1-5',
        host: { ip: '10.0.1.5', icmp: { ok: true }, http: { ok: true } },
        endpoint: { ip: '10.64.2.9', icmp: { ok: true }, http: { ok: true } },
      },
      {
        name: 'default/ip-10-0-2-17',
        node: 'ip-10-0-2-17',
        host: { ip: '10.0.2.17', icmp: { ok: true }, http: { ok: true } },
        endpoint: { ip: '10.64.2.9', icmp: { ok: true }, http: { ok: true } },
      },
    ]);
  });

  it('treats an empty status as success', () => {
    const report = parseCiliumHealth(
      response([node('ip-10-0-2-17', path('10.0.2.17', { ...OK, status: '' }))]),
    );
    expect(report.nodes[0]?.host?.icmp).toEqual({ ok: true });
  });

  it('reports a failing health endpoint with its errors (blocked tunnel)', () => {
    const endpoint = path('10.64.2.9', failed(TIMEOUT), failed(HTTP_TIMEOUT));
    const [peer] = parseCiliumHealth(response([node('ip-10-0-2-17', undefined, endpoint)])).nodes;
    expect(peer?.host).toEqual({ ip: '10.0.2.17', icmp: { ok: true }, http: { ok: true } });
    expect(peer?.endpoint).toEqual({
      ip: '10.64.2.9',
      icmp: { ok: false, error: TIMEOUT },
      http: { ok: false, error: HTTP_TIMEOUT },
    });
  });

  it('reports a failing host HTTP probe (4240 blocked)', () => {
    const host = path('10.0.2.17', OK, failed(HTTP_TIMEOUT));
    const [peer] = parseCiliumHealth(response([node('ip-10-0-2-17', host)])).nodes;
    expect(peer?.host?.http).toEqual({ ok: false, error: HTTP_TIMEOUT });
    expect(peer?.host?.icmp).toEqual({ ok: true });
    expect(peer?.endpoint?.http).toEqual({ ok: true });
  });

  it('reports a failing host ICMP probe', () => {
    const host = path('10.0.2.17', failed(TIMEOUT));
    const [peer] = parseCiliumHealth(response([node('ip-10-0-2-17', host)])).nodes;
    expect(peer?.host?.icmp).toEqual({ ok: false, error: TIMEOUT });
    expect(peer?.host?.http).toEqual({ ok: true });
  });

  it('leaves the endpoint out when health-endpoint and the legacy endpoint are missing', () => {
    const { endpoint: _legacy, 'health-endpoint': _endpoint, ...hostOnly } = node('ip-10-0-2-17');
    const [peer] = parseCiliumHealth(response([hostOnly])).nodes;
    expect(peer?.endpoint).toBeUndefined();
    expect(peer?.host?.ip).toBe('10.0.2.17');
  });

  it('falls back to the legacy endpoint field that older agents print', () => {
    const { 'health-endpoint': _endpoint, ...legacy } = node(
      'ip-10-0-2-17',
      undefined,
      path('10.64.2.9', failed(TIMEOUT)),
    );
    const [peer] = parseCiliumHealth(response([legacy])).nodes;
    expect(peer?.endpoint?.icmp).toEqual({ ok: false, error: TIMEOUT });
  });

  it('marks probes that were not run as absent, not failed', () => {
    const [peer] = parseCiliumHealth(
      response([{ name: 'default/ip-10-0-2-17', host: { 'primary-address': { ip: '10.0.2.17' } } }]),
    ).nodes;
    expect(peer?.host).toEqual({ ip: '10.0.2.17', icmp: undefined, http: undefined });
  });

  it('keeps the cluster prefix of cluster-mesh peers', () => {
    const remote = { ...node('ip-10-1-0-4'), name: 'west/ip-10-1-0-4' };
    expect(parseCiliumHealth(response([remote])).nodes[0]?.node).toBe('west/ip-10-1-0-4');
  });

  it('returns no nodes for an empty or null nodes list', () => {
    expect(parseCiliumHealth(response([])).nodes).toEqual([]);
    expect(parseCiliumHealth(response(null)).nodes).toEqual([]);
  });

  it('rejects malformed JSON', () => {
    expect(() => parseCiliumHealth('{"nodes": [')).toThrow(
      /cilium-health status -o json: output is not JSON/,
    );
  });

  it('rejects empty output', () => {
    expect(() => parseCiliumHealth('')).toThrow('cilium-health status -o json: empty output');
    expect(() => parseCiliumHealth(' \n')).toThrow('empty output');
  });

  it('rejects JSON that is not a health status response', () => {
    expect(() => parseCiliumHealth('{"local": {"name": "x"}}')).toThrow(
      /not a health status response \(nodes:/,
    );
    expect(() => parseCiliumHealth('[]')).toThrow(/not a health status response/);
    expect(() => parseCiliumHealth(response([{ host: {} }]))).toThrow(/nodes\[0\]\.name/);
    expect(() =>
      parseCiliumHealth(response([node('n', path('10.0.0.1', { lastProbed: PROBED, status: 5 } as never))])),
    ).toThrow(/not a health status response/);
  });
});
