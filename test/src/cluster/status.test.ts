import { describe, expect, it } from 'vitest';
import { errorFromResponse, errorKindFor } from '../../../src/cluster/status.ts';

const LIST_PODS = { verb: 'list', resource: 'pods' };

describe('errorKindFor', () => {
  it.each([
    [400, 'invalid'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [405, 'invalid'],
    [408, 'timeout'],
    [409, 'conflict'],
    [410, 'conflict'],
    [422, 'invalid'],
    [429, 'throttled'],
    [500, 'unavailable'],
    [502, 'unavailable'],
    [503, 'unavailable'],
    [504, 'unavailable'],
  ])('maps %i to %s', (code, kind) => {
    expect(errorKindFor(code)).toBe(kind);
  });
});

describe('errorFromResponse', () => {
  it("takes the detail from a Status body's message", () => {
    const error = errorFromResponse(LIST_PODS, 403, {
      kind: 'Status',
      status: 'Failure',
      message: 'pods is forbidden: User "x" cannot list resource "pods"',
      code: 403,
    });
    expect(error.message).toBe(
      'forbidden: list pods (pods is forbidden: User "x" cannot list resource "pods")',
    );
    expect(error.status).toBe(403);
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('prefers the Retry-After header and falls back to the Status details', () => {
    const body = { kind: 'Status', code: 429, details: { retryAfterSeconds: 7 } };
    expect(errorFromResponse(LIST_PODS, 429, body, '2').retryAfterSeconds).toBe(2);
    expect(errorFromResponse(LIST_PODS, 429, body).retryAfterSeconds).toBe(7);
    expect(errorFromResponse(LIST_PODS, 429, body, 'soon').retryAfterSeconds).toBe(7);
  });

  it('keeps a short detail from a body that is not a Status', () => {
    const error = errorFromResponse(LIST_PODS, 502, `  <html>${'x'.repeat(500)}</html>`);
    expect(error.kind).toBe('unavailable');
    expect(error.detail).toHaveLength(200);
    expect(error.detail.startsWith('<html>')).toBe(true);
    expect(errorFromResponse(LIST_PODS, 403, '').message).toBe('forbidden: list pods');
  });
});
