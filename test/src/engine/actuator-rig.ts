import { afterEach, beforeEach } from 'vitest';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import type { ClusterAccess } from '../../../src/cluster/types.ts';
import { type ActuatorOptions, createActuator } from '../../../src/engine/actuator.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { type Brake, DEFAULT_LIMITS } from '../../../src/engine/types.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

/** An actuator in `auto` on `access`, with an open brake and the default limits unless given. */
export function actuatorOn(access: ClusterAccess, options: Partial<ActuatorOptions> = {}) {
  return createActuator({
    cluster: access.name,
    kube: access.kube,
    cilium: access.cilium,
    mode: 'auto',
    limits: DEFAULT_LIMITS,
    brake: { tryWrite: async () => true },
    log: SILENT,
    ...options,
  });
}

/** A brake that always allows and counts the tickets it still holds (taken minus given back). */
export function countingBrake(): Brake & { held: () => number } {
  let held = 0;
  return {
    tryWrite: async () => {
      held++;
      return true;
    },
    refund: async () => {
      held--;
    },
    held: () => held,
  };
}

export interface CheckoutIncident {
  current: SimUnderTest;
  access: ClusterAccess;
  /** An evictable unmanaged pod (its ReplicaSet recreates it). */
  pod: PodRef;
}

/**
 * The unmanaged-pods incident, fresh for each test of the calling file and closed after it. Read
 * the fields inside tests: they are set in beforeEach.
 */
export function checkoutIncident(): CheckoutIncident {
  const incident = {} as CheckoutIncident;
  beforeEach(async () => {
    incident.current = await startScenario(['unmanaged-pods']);
    incident.access = incident.current.access;
    incident.pod = (incident.current.plan.unmanagedPods as UnmanagedPodsPlan).evictable.find((p) =>
      p.name.startsWith('checkout-'),
    ) as PodRef;
  });
  afterEach(() => incident.current.sim.close());
  return incident;
}
