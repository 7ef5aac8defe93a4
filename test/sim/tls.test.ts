import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from '../../sim/kubeconfig.ts';
import { type Certificates, createCertificates } from '../../sim/tls.ts';

const run = promisify(execFile);
const onPath = (command: string, ...args: string[]) =>
  run(command, args)
    .then(() => true)
    .catch(() => false);
const opensslAvailable = await onPath('openssl', 'version');
const kubectlAvailable = await onPath('kubectl', 'version', '--client');

let certs: Certificates;
let server: Server;
let port: number;

beforeAll(async () => {
  certs = await createCertificates({ hosts: ['10.9.8.7', 'api.sim.internal'] });
  server = createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    // Enough of /version for `kubectl version`.
    res.end(
      JSON.stringify({
        major: '1',
        minor: '33',
        gitVersion: 'v1.33.5-eks-sim',
        platform: 'linux/amd64',
        path: req.url,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Completes a TLS handshake to 127.0.0.1 trusting only the generated CA. */
function handshake(servername?: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port, ca: certs.caPem, rejectUnauthorized: true, servername },
      () => {
        const peer = socket.getPeerCertificate();
        socket.end();
        resolve(peer);
      },
    );
    socket.on('error', reject);
  });
}

describe('createCertificates', () => {
  it('is trusted by IP through the CA alone', async () => {
    const peer = await handshake();
    expect(peer.subject.CN).toBe('kube-apiserver');
  });

  it('is trusted for localhost through the CA alone', async () => {
    await expect(handshake('localhost')).resolves.toBeDefined();
  });

  it('is not trusted for a name it does not carry', async () => {
    await expect(handshake('elsewhere.example')).rejects.toThrow(/does not match certificate's altnames/);
  });

  it('serves https requests to clients that trust the CA', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/version', ca: certs.caPem }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(JSON.parse(body)).toMatchObject({ gitVersion: 'v1.33.5-eks-sim', path: '/version' });
  });

  it('names 127.0.0.1, ::1, localhost and the given hosts, IPs as IP entries', async () => {
    const peer = await handshake();
    expect(peer.subjectaltname).toBe(
      'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost, IP Address:10.9.8.7, DNS:api.sim.internal',
    );
    for (const host of ['127.0.0.1', '::1', 'localhost', '10.9.8.7', 'api.sim.internal']) {
      expect(checkServerIdentity(host, peer)).toBeUndefined();
    }
    expect(checkServerIdentity('10.9.8.8', peer)).toBeInstanceOf(Error);
  });

  it('has a CA certificate and a serverAuth leaf the CA signed', () => {
    const ca = new X509Certificate(certs.caPem);
    const leaf = new X509Certificate(certs.certPem);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    // Node's keyUsage lists the extended key usages: serverAuth.
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
  });

  it.skipIf(!opensslAvailable)('marks the extensions Go checks as critical where it expects', async () => {
    const extensions = async (pem: string) => {
      const file = join(mkdtempSync(join(tmpdir(), 'sim-ext-')), 'cert.pem');
      writeFileSync(file, pem);
      const { stdout } = await run('openssl', [
        'x509',
        '-in',
        file,
        '-noout',
        '-ext',
        'basicConstraints,keyUsage,extendedKeyUsage',
      ]);
      return stdout.split('\n').map((line) => line.trim());
    };
    expect(await extensions(certs.caPem)).toEqual([
      'X509v3 Basic Constraints: critical',
      'CA:TRUE, pathlen:0',
      'X509v3 Key Usage: critical',
      'Certificate Sign, CRL Sign',
      '',
    ]);
    expect(await extensions(certs.certPem)).toEqual([
      'X509v3 Basic Constraints: critical',
      'CA:FALSE',
      'X509v3 Key Usage: critical',
      'Digital Signature',
      'X509v3 Extended Key Usage:',
      'TLS Web Server Authentication',
      '',
    ]);
  });

  it('is valid from a minute ago for a year', () => {
    const leaf = new X509Certificate(certs.certPem);
    const from = Date.parse(leaf.validFrom);
    const to = Date.parse(leaf.validTo);
    expect(Date.now() - from).toBeGreaterThanOrEqual(59_000);
    expect(Date.now() - from).toBeLessThan(10 * 60_000);
    expect(to - from).toBe(365 * 24 * 60 * 60 * 1000);
  });

  it('makes a fresh CA and key every time', async () => {
    const again = await createCertificates({ hosts: [] });
    expect(again.caPem).not.toBe(certs.caPem);
    expect(again.keyPem).not.toBe(certs.keyPem);
    expect(again.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('is quick once the library is loaded', async () => {
    const started = performance.now();
    await createCertificates({ hosts: ['10.0.0.1'] });
    expect(performance.now() - started).toBeLessThan(200);
  });

  it.skipIf(!opensslAvailable)('verifies with openssl verify -CAfile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-tls-'));
    writeFileSync(join(dir, 'ca.pem'), certs.caPem);
    writeFileSync(join(dir, 'cert.pem'), certs.certPem);
    const { stdout } = await run('openssl', [
      'verify',
      '-purpose',
      'sslserver',
      '-CAfile',
      join(dir, 'ca.pem'),
      join(dir, 'cert.pem'),
    ]);
    expect(stdout.trim()).toBe(`${join(dir, 'cert.pem')}: OK`);
  });

  it.skipIf(!kubectlAvailable)("is accepted by kubectl's Go crypto/x509 through a kubeconfig", async () => {
    const home = mkdtempSync(join(tmpdir(), 'sim-kubectl-'));
    const kubeconfig = join(home, 'config');
    writeKubeconfig(kubeconfig, {
      server: `https://127.0.0.1:${port}`,
      caPem: certs.caPem,
      token: 'sim-token',
    });
    const { stdout } = await run('kubectl', ['version', '-o', 'json', '--kubeconfig', kubeconfig], {
      env: { PATH: process.env.PATH, HOME: home },
    });
    expect(JSON.parse(stdout).serverVersion).toMatchObject({ gitVersion: 'v1.33.5-eks-sim' });
  });
});
