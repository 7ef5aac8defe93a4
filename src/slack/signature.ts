import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack refuses to sign anything older; a wider window would let a captured request be replayed. */
const MAX_SKEW_SECONDS = 5 * 60;

export interface SlackSignatureInput {
  signingSecret: string;
  /** `X-Slack-Request-Timestamp`, seconds since the epoch. */
  timestamp: string | undefined;
  /** `X-Slack-Signature`, `v0=` + hex. */
  signature: string | undefined;
  /** The body exactly as received: parsing and re-serialising it changes the bytes. */
  rawBody: string | Uint8Array;
  now: Date;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** Slack's v0 request signature: HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the app's signing secret. */
export function verifySlackSignature(input: SlackSignatureInput): SignatureCheck {
  const { signingSecret, timestamp, signature, rawBody, now } = input;
  if (!signature) return { ok: false, reason: 'missing X-Slack-Signature header' };
  if (!timestamp) return { ok: false, reason: 'missing X-Slack-Request-Timestamp header' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'malformed timestamp' };

  const skew = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (skew > MAX_SKEW_SECONDS) return { ok: false, reason: 'request timestamp is more than 5 minutes old' };
  if (skew < -MAX_SKEW_SECONDS) {
    return { ok: false, reason: 'request timestamp is more than 5 minutes in the future' };
  }

  const expected = Buffer.from(`v0=${signatureHex(signingSecret, timestamp, rawBody)}`);
  const received = Buffer.from(signature);
  // timingSafeEqual throws on unequal lengths; a length difference reveals nothing about the secret.
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return { ok: false, reason: 'signature mismatch' };
  }
  return { ok: true };
}

function signatureHex(signingSecret: string, timestamp: string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(rawBody).digest('hex');
}
