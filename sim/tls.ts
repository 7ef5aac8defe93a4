/**
 * A throwaway certificate authority and serving certificate for the simulated API server, made
 * fresh at start. Shaped for Go's crypto/x509, which kubectl uses and which is stricter than
 * OpenSSL: the CA carries basicConstraints CA:true and keyCertSign, the leaf names serverAuth,
 * and addresses appear as IP SANs (Go ignores the common name).
 */
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import type * as X509 from '@peculiar/x509';

export interface Certificates {
  /** The CA certificate clients trust (a kubeconfig's certificate-authority-data). */
  caPem: string;
  /** The server certificate, signed by the CA. */
  certPem: string;
  /** The server certificate's private key, PKCS#8. */
  keyPem: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 24 * 60 * 60 * 1000;

let loading: Promise<typeof X509> | undefined;

/** Imported on first use: only the simulator needs it, and its import costs a few hundred ms. */
function loadX509(): Promise<typeof X509> {
  loading ??= (async () => {
    // @peculiar/x509 registers its algorithms through tsyringe, which needs the Reflect metadata API.
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    // Node's WebCrypto rather than any polyfill the library might otherwise look for.
    x509.cryptoProvider.set(webcrypto as Crypto);
    return x509;
  })();
  return loading;
}

function generateKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

/** Positive, non-zero 16-byte serials, so two runs never issue the same one. */
function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

/** 127.0.0.1, ::1 and localhost, then the given hosts, each once, IPs as IP entries. */
function subjectAltNames(hosts: readonly string[]): X509.JsonGeneralName[] {
  const unique = [...new Set(['127.0.0.1', '::1', 'localhost', ...hosts])];
  return unique.map((host) => ({ type: isIP(host) ? 'ip' : 'dns', value: host }));
}

export async function createCertificates({ hosts }: { hosts: readonly string[] }): Promise<Certificates> {
  const x509 = await loadX509();
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + 365 * DAY);
  const [caKeys, serverKeys] = await Promise.all([generateKeys(), generateKeys()]);

  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: 'CN=cilium-responder-sim-ca',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const server = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=kube-apiserver',
    issuer: ca.subjectName,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(subjectAltNames(hosts)),
      await x509.SubjectKeyIdentifierExtension.create(serverKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
  return {
    caPem: ca.toString('pem'),
    certPem: server.toString('pem'),
    keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
  };
}
