import { describe, expect, it } from 'vitest';
import { addressPlan, intToIp, MAX_NODES, ZONES } from '../../../sim/scenarios/addresses.ts';

/** Node addresses as the fleet places them: round robin over the zones, four apart. */
function nodeAddresses(nodes: number): number[] {
  const plan = addressPlan(nodes);
  return Array.from(
    { length: nodes },
    (_, i) => plan.zoneSubnet(i % ZONES.length).base + 16 + Math.floor(i / ZONES.length) * 4,
  );
}

describe('the address plan', () => {
  it('keeps the plan small clusters always had', () => {
    const plan = addressPlan(12_000);
    expect(plan.podCidr).toBe('100.64.0.0/10');
    expect(plan.zoneSubnet(1).cidr).toBe('10.0.64.0/18');
    expect(plan.podBlock(5).cidr).toBe('100.64.5.0/24');
  });

  it('gives every node of the largest cluster its own address inside its zone, and its own pod block inside the pod CIDR', () => {
    const plan = addressPlan(MAX_NODES);
    const addresses = nodeAddresses(MAX_NODES);
    expect(new Set(addresses).size).toBe(MAX_NODES);
    for (let z = 0; z < ZONES.length; z++) {
      const { base } = plan.zoneSubnet(z);
      const inZone = addresses.filter((_, i) => i % ZONES.length === z);
      expect(Math.max(...inZone) + 3).toBeLessThan(base + 2 ** 18);
    }
    expect(plan.podBlock(0).cidr).toBe('10.128.0.0/26');
    const last = plan.podBlock(MAX_NODES - 1);
    expect(intToIp(last.base + 63)).toBe('10.245.47.255');
    expect(last.base + 63).toBeLessThanOrEqual(0x0affffff);
    expect(plan.podBlockLast - plan.podBlockFirst + 1).toBeGreaterThanOrEqual(30);
  });
});
