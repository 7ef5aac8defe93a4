import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import { createCertificates } from '../../../sim/tls.ts';
import { clusterAccess } from '../../../src/cluster/access.ts';
import { clusterConnection } from '../../../src/cluster/connection.ts';
import { fanOut } from '../../../src/cluster/fan-out.ts';
import { PreconnectAgent } from '../../../src/cluster/preconnect-agent.ts';

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

  it('applies a kubeconfig whose credentials cannot change once, however many requests follow', async () => {
    const kc = kubeConfig('https://127.0.0.1:6443', caPem);
    const applied = vi.spyOn(kc, 'applyToHTTPSOptions');
    const connection = clusterConnection(kc);
    const all = await Promise.all(Array.from({ length: 20 }, () => connection()));
    expect(applied).toHaveBeenCalledTimes(1);
    for (const options of all)
      expect(options.headers).toMatchObject({ Authorization: 'Bearer from-kubeconfig' });
    // Each request gets its own copy: one that adds a header does not add it to the next.
    (all[0]?.headers as Record<string, string>)['X-Added'] = 'one request';
    expect((await connection()).headers).not.toHaveProperty('X-Added');
  });

  it('asks a kubeconfig whose credentials refresh on every call, and builds a new agent when the CA file changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'connection-'));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, caPem);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', caFile }],
      users: [{ name: 'u', token: 'from-kubeconfig' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    const applied = vi.spyOn(kc, 'applyToHTTPSOptions');
    const connection = clusterConnection(kc);
    const before = (await connection()).agent;
    expect((await connection()).agent).toBe(before);
    writeFileSync(caFile, (await createCertificates({ hosts: ['127.0.0.1'] })).caPem);
    expect((await connection()).agent).not.toBe(before);
    expect(applied).toHaveBeenCalledTimes(3);
  });

  it('applies the kubeconfig again after a failed application', async () => {
    const kc = kubeConfig('https://127.0.0.1:6443', caPem);
    const applied = vi.spyOn(kc, 'applyToHTTPSOptions').mockRejectedValueOnce(new Error('not yet'));
    const connection = clusterConnection(kc);
    await expect(connection()).rejects.toThrow('not yet');
    await expect(connection()).resolves.toMatchObject({
      headers: { Authorization: 'Bearer from-kubeconfig' },
    });
    expect(applied).toHaveBeenCalledTimes(2);
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
    expect(options.agent).not.toBeInstanceOf(PreconnectAgent);
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

  it('make no full TLS handshake at the server in a fan-out of 48 execs, 16 at a time, once the agents are listed', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const access = clusterAccess(kc, { name: 'sim' });
    const [agent] = await access.cilium.agents();
    if (!agent) throw new Error('no agent');
    const before = sim.tlsHandshakes();
    const results = await fanOut(
      Array.from({ length: 48 }, () => agent),
      (each) => access.cilium.exec(each, ['readlink', '/proc/self/ns/cgroup']),
      { concurrency: 16 },
    );
    expect(results.every((result) => result.ok && result.value.exitCode === 0)).toBe(true);
    const after = sim.tlsHandshakes();
    // The agents' list made the one full handshake; every exec connection resumes its session.
    expect(after.full - before.full).toBe(0);
    expect(after.resumed - before.resumed).toBeGreaterThanOrEqual(47);
  });
});
