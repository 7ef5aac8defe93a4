import { describe, expect, it } from 'vitest';
import { deliveryKey } from '../../../src/triggers/delivery-key.ts';

describe('deliveryKey', () => {
  it('is the same for the same ids and short whatever their length', () => {
    const ids = [
      '{}:{alertname="Test"}',
      'firing',
      ...Array.from({ length: 500 }, (_, i) => `fingerprint-${i}`),
    ];
    expect(deliveryKey('alertmanager', ids)).toBe(deliveryKey('alertmanager', [...ids]));
    expect(deliveryKey('alertmanager', ids)).toMatch(/^alertmanager:[0-9a-f]{32}$/);
  });

  it('keeps ids apart: no two lists, and no two sources, share a key', () => {
    expect(deliveryKey('schedule', ['a:b', 'c'])).not.toBe(deliveryKey('schedule', ['a', 'b:c']));
    expect(deliveryKey('schedule', ['ab'])).not.toBe(deliveryKey('schedule', ['a', 'b']));
    expect(deliveryKey('slack-command', ['T1', 'x'])).not.toBe(deliveryKey('slack-action', ['T1', 'x']));
  });
});
