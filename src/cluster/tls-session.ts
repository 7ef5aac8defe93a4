/**
 * A TLS session as node hands it out is OpenSSL's DER encoding of SSL_SESSION (ssl/ssl_asn1.c):
 * one SEQUENCE whose element tagged [3] is the server's certificate. Node decodes the whole
 * session again for every connection that resumes it, and on OpenSSL 3 decoding the certificate
 * is most of that (about 0.2 ms of the 0.3 ms per connection here). A resumed handshake never
 * reads it: the key resumed was made by the handshake that verified the certificate, and node
 * checks the server's identity only on handshakes that did not resume. So the session kept for
 * resumption leaves it out; a full handshake still gets and verifies the certificate.
 */

const SEQUENCE = 0x30;
/** Context-specific, constructed, tag 3: SSL_SESSION's `peer`. */
const PEER_CERTIFICATE = 0xa3;

/** A DER length at `at`: its value and where the content starts, or undefined when it runs past `end`. */
function lengthAt(der: Buffer, at: number, end: number): { length: number; content: number } | undefined {
  const first = der[at];
  if (first === undefined || at >= end) return undefined;
  if (first < 0x80) return { length: first, content: at + 1 };
  const octets = first & 0x7f;
  // Indefinite lengths are not DER; four octets are far past any session.
  if (octets === 0 || octets > 4 || at + 1 + octets > end) return undefined;
  let length = 0;
  for (let i = 1; i <= octets; i++) length = length * 256 + (der[at + i] as number);
  return { length, content: at + 1 + octets };
}

function lengthOctets(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256);
  return Buffer.from([0x80 | octets.length, ...octets]);
}

/**
 * The session without the server's certificate, for resuming. Anything that is not one DER
 * SEQUENCE of well-formed elements, or has no certificate, is returned as it is (OpenSSL
 * ignores a session it cannot decode, and the connection makes a full handshake).
 */
export function resumptionSession(session: Buffer): Buffer {
  if (session[0] !== SEQUENCE) return session;
  const outer = lengthAt(session, 1, session.length);
  if (!outer || outer.content + outer.length !== session.length) return session;
  const kept: Buffer[] = [];
  let removed = false;
  for (let at = outer.content; at < session.length; ) {
    const element = lengthAt(session, at + 1, session.length);
    if (!element || element.content + element.length > session.length) return session;
    const next = element.content + element.length;
    if (session[at] === PEER_CERTIFICATE) removed = true;
    else kept.push(session.subarray(at, next));
    at = next;
  }
  if (!removed) return session;
  const body = Buffer.concat(kept);
  return Buffer.concat([Buffer.from([SEQUENCE]), lengthOctets(body.length), body]);
}
