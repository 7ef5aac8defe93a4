import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import type { AgentPod, ClusterAccess, ExecOptions } from '../../../src/cluster/types.ts';
import { accessAt, accessTo, countRequests, failByPattern, kubeErrorOf, silentServer } from './fixtures.ts';

describe('KubeFacade.exec over WebSocket', () => {
  let sim: Sim;
  let access: ClusterAccess;
  let agent: AgentPod;
  const run = (command: string[], options?: ExecOptions, on: ClusterAccess = access) =>
    on.kube.exec(agent.namespace, agent.name, 'cilium-agent', command, options);

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'], controllers: false });
    access = accessTo(sim, { retries: 2 });
    agent = (await access.cilium.agents())[0] as AgentPod;
  });
  afterAll(() => sim.close());
  afterEach(() => {
    vi.restoreAllMocks();
    sim.faults.clear();
  });

  it('collects stdout as bytes, with exit code 0', async () => {
    const result = await run(['echo', 'héllo', '✓']);
    expect(Buffer.isBuffer(result.stdout)).toBe(true);
    expect(result.stdout.equals(Buffer.from('héllo ✓\n', 'utf8'))).toBe(true);
    expect(result.stderr.length).toBe(0);
    expect(result.exitCode).toBe(0);
    expect(result).not.toHaveProperty('message');
  });

  it('hands stdout to onStdout frame by frame as it arrives, the result keeping none of it', async () => {
    const large = await startSim({ scenarios: ['healthy'], scenario: { nodes: 300 }, controllers: false });
    try {
      const on = accessTo(large);
      const [first] = await on.cilium.agents();
      const status = (options?: ExecOptions) =>
        on.cilium.exec(first as AgentPod, ['cilium-dbg', 'status', '-o', 'json'], options);
      const whole = await status();
      const frames: Buffer[] = [];
      const streamed = await status({ onStdout: (chunk) => frames.push(Buffer.from(chunk)) });
      expect(streamed.exitCode).toBe(0);
      expect(streamed.stdout.length).toBe(0);
      expect(frames.length).toBeGreaterThan(2);
      expect(Buffer.concat(frames).equals(whole.stdout)).toBe(true);
    } finally {
      await large.close();
    }
  });

  it('closes the command and rejects with the error onStdout throws, without retrying', async () => {
    const requests = countRequests(sim);
    const refused = run(['cilium-dbg', 'status', '-o', 'json'], {
      onStdout: () => {
        throw new Error('not the JSON expected');
      },
    });
    await expect(refused).rejects.toThrow('not the JSON expected');
    expect(requests()).toBe(1);
  });

  it('keeps stderr apart and reads a non-zero exit code from the status', async () => {
    const result = await run(['iptables-save', '-t', 'nosuchtable']);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr.toString()).toBe("iptables-save: unknown table 'nosuchtable'\n");
    expect(result.exitCode).toBe(1);
    expect(result.message).toMatch(/exit code 1$/);
  });

  it('reports an executable the image lacks as exit code 127 with the runtime message', async () => {
    const byName = await run(['no-such-tool', '--version']);
    expect(byName.exitCode).toBe(127);
    expect(byName.message).toContain('"no-such-tool": executable file not found in $PATH');
    const byPath = await run(['/usr/local/bin/no-such-tool']);
    expect(byPath.exitCode).toBe(127);
    expect(byPath.message).toContain('no such file or directory');
  });

  it('sends the token source instead of the kubeconfig credentials', async () => {
    const refreshed = accessTo(sim, { kubeconfigToken: 'expired-token', token: async () => sim.admin.token });
    expect((await run(['true'], {}, refreshed)).exitCode).toBe(0);
  });

  it('names create pods/exec when the token may not exec', async () => {
    const reader = sim.issueToken('reader', [{ verbs: ['get', 'list'], resources: ['pods'] }]);
    const requests = countRequests(sim);
    const error = await kubeErrorOf(run(['true'], {}, accessTo(sim, { kubeconfigToken: reader.token })));
    expect(error.kind).toBe('forbidden');
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/^forbidden: create pods\/exec \(.*cannot create resource "pods\/exec"/);
    expect(requests()).toBe(1);
  });

  it('reports a pod that does not exist as not-found', async () => {
    const error = await kubeErrorOf(access.kube.exec('kube-system', 'cilium-gone', 'cilium-agent', ['true']));
    expect(error.kind).toBe('not-found');
  });

  it('retries an upgrade the server throttled, since nothing ran', async () => {
    sim.faults.set('exec', { errorRate: 1, errorCode: 429, retryAfterSeconds: 0 });
    const attempts = failByPattern(sim, 'exec', [true]);
    expect((await run(['true'])).exitCode).toBe(0);
    expect(attempts()).toBe(2);
  });

  it('times out a command that never reports its exit status', async () => {
    sim.faults.set('exec', { execStall: true });
    const started = performance.now();
    const error = await kubeErrorOf(run(['cilium-dbg', 'status'], { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('timeout: create pods/exec (no exit status within 300 ms)');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reports a connection dropped before the exit status as unavailable, without retrying', async () => {
    sim.faults.set('exec', { execDropAfterBytes: 10 });
    const requests = countRequests(sim);
    const error = await kubeErrorOf(run(['cilium-dbg', 'version']));
    expect(error.kind).toBe('unavailable');
    expect(error.detail).toBe('connection closed before the command reported its exit status');
    expect(requests()).toBe(1);
  });

  it('times out an upgrade that never completes', async () => {
    const silent = await silentServer();
    try {
      const started = performance.now();
      const error = await kubeErrorOf(run(['true'], { handshakeTimeoutMs: 300 }, accessAt(sim, silent.url)));
      expect(error.kind).toBe('timeout');
      expect(error.message).toBe('timeout: create pods/exec (WebSocket not upgraded within 300 ms)');
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await silent.close();
    }
  });

  it('stops a long command when the run stops: the promise rejects with the reason, the connection closes', async () => {
    const own = await startSim({ scenarios: ['healthy'], controllers: false });
    const on = accessTo(own);
    const stopped = new AbortController();
    const monitor = run(
      ['timeout', '60', 'cilium-dbg', 'monitor', '--type', 'drop'],
      {
        timeoutMs: 75_000,
        signal: stopped.signal,
      },
      on,
    );
    setTimeout(() => stopped.abort(new Error('stopped by Ctrl-C')), 300);
    const started = performance.now();
    await expect(monitor).rejects.toThrow('stopped by Ctrl-C');
    // The simulated API server closes only once every exec connection has: the command ended.
    await own.close();
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('does not start a command once the run has stopped', async () => {
    const requests = countRequests(sim);
    await expect(run(['true'], { signal: AbortSignal.abort(new Error('stopped')) })).rejects.toThrow(
      'stopped',
    );
    expect(requests()).toBe(0);
  });
});
