import { Agent } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import { createCertificates } from '../../../sim/tls.ts';
import { clusterAccess } from '../../../src/cluster/access.ts';
import { clusterConnection } from '../../../src/cluster/connection.ts';

function kubeConfig(server: string, caPem: string, extra: { proxyUrl?: string } = {}): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, caData: Buffer.from(caPem).toString('base64'), ...extra }],
    users: [{ name: 'u', token: 'from-kubeconfig' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

describe('clusterConnection', () => {
  let caPem: string;
  beforeAll(async () => {
    caPem = (await createCertificates({ hosts: ['127.0.0.1'] })).caPem;
  });

  it('hands every request the same agent, holding the TLS material instead of the request', async () => {
    const connection = clusterConnection(kubeConfig('https://127.0.0.1:6443', caPem));
    const first = await connection();
    const second = await connection();
    expect(first.agent).toBeInstanceOf(Agent);
    expect(second.agent).toBe(first.agent);
    expect(first).not.toHaveProperty('ca');
    expect(first.headers).toMatchObject({ Authorization: 'Bearer from-kubeconfig' });
  });

  it('builds a new agent when the kubeconfig names other TLS material', async () => {
    const kc = kubeConfig('https://127.0.0.1:6443', caPem);
    const connection = clusterConnection(kc);
    const before = (await connection()).agent;
    const otherCa = (await createCertificates({ hosts: ['127.0.0.1'] })).caPem;
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('no cluster');
    Object.assign(cluster, { caData: Buffer.from(otherCa).toString('base64') });
    expect((await connection()).agent).not.toBe(before);
  });

  it('sets a refreshed token over the kubeconfig credentials on every call', async () => {
    let n = 0;
    const connection = clusterConnection(kubeConfig('https://127.0.0.1:6443', caPem), async () => `t${++n}`);
    expect((await connection()).headers).toMatchObject({ Authorization: 'Bearer t1' });
    expect((await connection()).headers).toMatchObject({ Authorization: 'Bearer t2' });
  });

  it("keeps the kubeconfig's own agent behind a proxy", async () => {
    const connection = clusterConnection(
      kubeConfig('https://127.0.0.1:6443', caPem, { proxyUrl: 'http://127.0.0.1:3128' }),
    );
    const options = await connection();
    expect(options.agent).toBeDefined();
    expect(options.agent).not.toBe((await connection()).agent);
  });
});

describe('execs through one cluster access', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'], controllers: false });
  });
  afterAll(() => sim.close());

  it('resume the TLS session of the first connection', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const access = clusterAccess(kc, { name: 'sim' });
    // Watch every TLS connection an https agent opens (the facade's agent is its own).
    const reused: boolean[] = [];
    const original = Agent.prototype.createConnection;
    Agent.prototype.createConnection = function (this: Agent, ...args: unknown[]) {
      const socket = (original as (...a: unknown[]) => TLSSocket).apply(this, args);
      socket.once('secureConnect', () => reused.push(socket.isSessionReused()));
      return socket;
    };
    try {
      const [first] = await access.cilium.agents();
      if (!first) throw new Error('no agent');
      for (let i = 0; i < 4; i++) {
        const result = await access.cilium.exec(first, ['readlink', '/proc/self/ns/cgroup']);
        expect(result.exitCode).toBe(0);
      }
    } finally {
      Agent.prototype.createConnection = original;
    }
    // The list's connection is a full handshake (and may carry the first exec); every later one resumes.
    expect(reused.length).toBeGreaterThanOrEqual(4);
    expect(reused[0]).toBe(false);
    expect(reused.slice(1).every(Boolean)).toBe(true);
  });
});
