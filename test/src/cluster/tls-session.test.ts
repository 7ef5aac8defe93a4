import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificates } from '../../../sim/tls.ts';
import { resumptionSession } from '../../../src/cluster/tls-session.ts';

let certs: Awaited<ReturnType<typeof createCertificates>>;
let server: Server;
let port: number;
/** The server's handshakes, whether each resumed a session. */
const resumed: boolean[] = [];

beforeAll(async () => {
  certs = await createCertificates({ hosts: ['127.0.0.1'] });
  server = createServer({ cert: certs.certPem, key: certs.keyPem }, (socket) => {
    resumed.push(socket.isSessionReused());
    socket.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** One connection, resuming `session` if given: whether the certificate checked, and the last session the server gave. */
function connectOnce(session?: Buffer): Promise<{ authorized: boolean; session: Buffer | undefined }> {
  return new Promise((resolve, reject) => {
    let given: Buffer | undefined;
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: certs.caPem, ...(session ? { session } : {}) });
    socket.on('session', (next: Buffer) => {
      given = next;
    });
    socket.on('data', () => {});
    socket.on('end', () => {
      socket.destroy();
      resolve({ authorized: socket.authorized, session: given });
    });
    socket.on('error', reject);
  });
}

/** A session from a full handshake. */
async function newSession(): Promise<Buffer> {
  const { session } = await connectOnce();
  if (!session) throw new Error('the server gave no session');
  return session;
}

const certificateDer = () => new X509Certificate(certs.certPem).raw;

describe('resumptionSession', () => {
  it("leaves out the server's certificate, and the session still resumes with the server checked", async () => {
    const session = await newSession();
    expect(session.includes(certificateDer())).toBe(true);
    const trimmed = resumptionSession(session);
    expect(trimmed.includes(certificateDer())).toBe(false);
    expect(trimmed.length).toBeLessThan(session.length - certificateDer().length);
    resumed.length = 0;
    const next = await connectOnce(trimmed);
    expect(resumed).toEqual([true]);
    expect(next.authorized).toBe(true);
  });

  it('returns what it cannot read as it is', async () => {
    const session = await newSession();
    const truncated = session.subarray(0, session.length - 5);
    const notASequence = Buffer.concat([Buffer.from([0x31]), session.subarray(1)]);
    const trailing = Buffer.concat([session, Buffer.from([0])]);
    for (const odd of [truncated, notASequence, trailing, Buffer.alloc(0), Buffer.from([0x30, 0x85, 1])])
      expect(resumptionSession(odd)).toBe(odd);
    // Already without a certificate: nothing to leave out.
    const trimmed = resumptionSession(session);
    expect(resumptionSession(trimmed)).toBe(trimmed);
  });
});
