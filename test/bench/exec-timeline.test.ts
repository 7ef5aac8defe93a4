import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  medianTimeline,
  recordClientExecs,
  type Timeline,
  timelineSample,
} from '../../bench/exec-timeline.ts';
import { EXEC_TIMELINE_CHANNEL } from '../../sim/exec/timeline.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { clusterAccess } from '../../src/cluster/access.ts';

const CLIENT_MOMENTS = [
  'connect',
  'TLS',
  'upgrade written',
  '101 received',
  'first stdout',
  'exit status',
  'close',
];
const SIMULATOR_MOMENTS = [
  'latency served',
  '101 written',
  'first stdout queued',
  'first stdout written',
  'exit status queued',
  'exit status written',
  'closed',
];

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ scenarios: ['healthy'], controllers: false });
});
afterAll(() => sim.close());

describe('exec timelines', () => {
  it('show each exec moment by moment at the client and at the simulator', async () => {
    const client = recordClientExecs();
    const simulator: Timeline[] = [];
    const record = (timeline: unknown) => simulator.push(timeline as Timeline);
    subscribe(EXEC_TIMELINE_CHANNEL, record);
    sim.faults.set('exec', { latencyMs: 30 });
    try {
      const kc = new KubeConfig();
      kc.loadFromString(sim.kubeconfig());
      const access = clusterAccess(kc, { name: 'sim' });
      const [agent] = await access.cilium.agents();
      if (!agent) throw new Error('the healthy cluster has no agent');
      for (let i = 0; i < 3; i++) {
        const result = await access.cilium.exec(agent, ['cilium-dbg', 'status', '-o', 'json']);
        expect(result.exitCode).toBe(0);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      unsubscribe(EXEC_TIMELINE_CHANNEL, record);
      sim.faults.clear('exec');
    }
    expect(client).toHaveLength(3);
    expect(simulator).toHaveLength(3);
    const atClient = medianTimeline(client);
    expect(Object.keys(atClient)).toEqual(CLIENT_MOMENTS);
    const atSimulator = medianTimeline(simulator);
    // A frame reaches the socket once the write before it has (an event-loop turn later, maybe
    // after later frames were queued), so only queued-before-written is fixed.
    expect(Object.keys(atSimulator).sort()).toEqual([...SIMULATOR_MOMENTS].sort());
    for (const frame of ['first stdout', 'exit status'])
      expect(atSimulator[`${frame} written`]).toBeGreaterThanOrEqual(atSimulator[`${frame} queued`] ?? 0);
    // The injected latency is served before the 101, on both sides.
    expect(atSimulator['latency served']).toBeGreaterThanOrEqual(29);
    expect((atClient['101 received'] ?? 0) - (atClient['upgrade written'] ?? 0)).toBeGreaterThanOrEqual(29);
  });
});

describe('timelineSample', () => {
  const timeline = (n: number): Timeline => ({ connect: n });

  it('keeps every timeline up to its size', () => {
    const sample = timelineSample(8);
    for (let n = 0; n < 8; n++) expect(sample.offer(timeline(n))).toBe(true);
    expect(sample.kept).toEqual(Array.from({ length: 8 }, (_, n) => timeline(n)));
  });

  it('keeps no more than its size however many execs a fan-out makes, drawn from all of them', () => {
    const sample = timelineSample(64);
    for (let n = 0; n < 100_000; n++) sample.offer(timeline(n));
    expect(sample.kept).toHaveLength(64);
    // A uniform draw: most of what is kept comes from past the first 64 execs, spread across the run.
    const kept = sample.kept.map((t) => t.connect as number);
    expect(kept.filter((n) => n >= 64).length).toBeGreaterThan(60);
    expect(Math.max(...kept)).toBeGreaterThan(50_000);
  });
});
