import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifySlackSignature } from '../../../src/slack/signature.ts';

interface SigningExample {
  signingSecret: string;
  timestamp: string;
  body: string;
  signature: string;
}

const example: SigningExample = JSON.parse(
  readFileSync(new URL('../../fixtures/slack/signing-example.json', import.meta.url), 'utf8'),
);
const signedAt = new Date(Number(example.timestamp) * 1000);

function check(overrides: Partial<Parameters<typeof verifySlackSignature>[0]> = {}) {
  return verifySlackSignature({
    signingSecret: example.signingSecret,
    timestamp: example.timestamp,
    signature: example.signature,
    rawBody: example.body,
    now: signedAt,
    ...overrides,
  });
}

function secondsAfter(seconds: number): Date {
  return new Date(signedAt.getTime() + seconds * 1000);
}

describe('verifySlackSignature with Slack documented example', () => {
  it('verifies with the clock set to its timestamp', () => {
    expect(check()).toEqual({ ok: true });
  });

  it('verifies the body given as bytes', () => {
    expect(check({ rawBody: Buffer.from(example.body) })).toEqual({ ok: true });
  });

  it('fails when any single byte of the body is tampered', () => {
    for (let index = 0; index < example.body.length; index++) {
      const original = example.body.charCodeAt(index);
      const tampered =
        example.body.slice(0, index) + String.fromCharCode(original ^ 1) + example.body.slice(index + 1);
      expect(check({ rawBody: tampered }), `byte ${index}`).toEqual({
        ok: false,
        reason: 'signature mismatch',
      });
    }
  });

  it('fails when a byte is added to or removed from the body', () => {
    expect(check({ rawBody: `${example.body}&` })).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(check({ rawBody: example.body.slice(0, -1) })).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  it('fails when the signature is changed, shortened or lengthened', () => {
    const last = example.signature.at(-1) === '0' ? '1' : '0';
    for (const signature of [
      example.signature.slice(0, -1) + last,
      example.signature.slice(0, -1),
      `${example.signature}0`,
      example.signature.replace('v0=', 'v1='),
      example.signature.toUpperCase(),
    ]) {
      expect(check({ signature }), signature).toEqual({ ok: false, reason: 'signature mismatch' });
    }
  });

  it('fails with another signing secret', () => {
    expect(check({ signingSecret: `${example.signingSecret}x` })).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  it('accepts a clock up to exactly 5 minutes either side', () => {
    expect(check({ now: secondsAfter(300) })).toEqual({ ok: true });
    expect(check({ now: secondsAfter(-300) })).toEqual({ ok: true });
  });

  it('fails when the clock is more than 5 minutes later', () => {
    expect(check({ now: secondsAfter(301) })).toEqual({
      ok: false,
      reason: 'request timestamp is more than 5 minutes old',
    });
  });

  it('fails when the clock is more than 5 minutes earlier', () => {
    expect(check({ now: secondsAfter(-301) })).toEqual({
      ok: false,
      reason: 'request timestamp is more than 5 minutes in the future',
    });
  });

  it('names the missing header', () => {
    expect(check({ signature: undefined })).toEqual({
      ok: false,
      reason: 'missing X-Slack-Signature header',
    });
    expect(check({ signature: '' })).toEqual({ ok: false, reason: 'missing X-Slack-Signature header' });
    expect(check({ timestamp: undefined })).toEqual({
      ok: false,
      reason: 'missing X-Slack-Request-Timestamp header',
    });
  });

  it('rejects a timestamp that is not whole seconds', () => {
    for (const timestamp of ['abc', '1531420618.5', '-1531420618', ' 1531420618', '1e9']) {
      expect(check({ timestamp }), timestamp).toEqual({ ok: false, reason: 'malformed timestamp' });
    }
  });
});
