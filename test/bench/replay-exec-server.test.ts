import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayExecServer } from '../../bench/replay-exec-server.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { statusWithinTheUpgradeTurn } from '../helpers/exec-turn.ts';
import { firstAgentPod } from '../sim/scenarios/helpers.ts';

let sim: Sim;
let agent: string;
beforeAll(async () => {
  sim = await startSim({ scenarios: ['healthy'], controllers: false });
  agent = firstAgentPod(sim.cluster);
});
afterAll(() => sim.close());

describe('the replaying exec server', () => {
  it("answers each exec with the simulator's frames, written with its 101 as the simulator writes them", async () => {
    const replay = await startReplayExecServer(sim, 20);
    try {
      const kc = new KubeConfig();
      kc.loadFromString(replay.kubeconfig);
      const cluster = kc.getCurrentCluster();
      if (!cluster?.caData) throw new Error('the replaying server names no CA');
      const through = { url: cluster.server, caPem: Buffer.from(cluster.caData, 'base64').toString() };
      const execs = Array.from({ length: 4 }, () => statusWithinTheUpgradeTurn(sim, agent, through));
      expect(await Promise.all(execs)).toEqual(Array(4).fill(true));
      expect(replay.execs()).toBe(4);
    } finally {
      await replay.close();
    }
  });
});
