import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../src/cluster/types.ts';
import type { ActuatorOptions } from '../../../src/engine/actuator.ts';
import { actuatorOn, checkoutIncident } from './actuator-rig.ts';

/**
 * The checks that can change while a write waits (the deadline, the run's lease) are made at the
 * moment the write is sent, after the slower ones (the eviction preview, the brake).
 */
const incident = checkoutIncident();

const actuator = (options: Partial<ActuatorOptions>) => actuatorOn(incident.access, options);

const stillThere = async () =>
  (await incident.access.kube.get(RESOURCES.pods, incident.pod.namespace, incident.pod.name)).metadata.uid;

describe('a write is checked as it is sent', () => {
  it('a deadline that passes while the brake is asked stops the write', async () => {
    const deadline = new AbortController();
    const brake = {
      tryWrite: async () => {
        deadline.abort();
        return true;
      },
    };
    const done = await actuator({ brake, signal: deadline.signal }).evictPod(
      incident.pod,
      'no CiliumEndpoint',
    );
    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: 'deadline passed: the run is over, nothing written',
    });
    expect(await stillThere()).toBe(incident.pod.uid);
  });

  it('a run stopped (Ctrl-C) while the brake is asked writes nothing, and says why', async () => {
    const stop = new AbortController();
    const brake = {
      tryWrite: async () => {
        stop.abort(new Error('stopped by Ctrl-C (pid 7 on laptop)'));
        return true;
      },
    };
    const done = await actuator({ brake, signal: stop.signal }).evictPod(incident.pod, 'no CiliumEndpoint');
    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: 'stopped by Ctrl-C (pid 7 on laptop): the run is over, nothing written',
    });
    expect(await stillThere()).toBe(incident.pod.uid);
  });

  it('a run that lost its lease writes nothing more', async () => {
    let lost: string | undefined;
    const brake = {
      tryWrite: async () => {
        lost =
          'the run lost its lease at 2026-11-24T04:00:00.000Z: another run may hold it, so nothing more is written';
        return true;
      },
    };
    const done = await actuator({ brake, fence: () => lost }).evictPod(incident.pod, 'no CiliumEndpoint');
    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/^the run lost its lease/),
    });
    expect(await stillThere()).toBe(incident.pod.uid);
  });
});
