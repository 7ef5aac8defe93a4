import type { SimCluster } from './cluster.ts';
import { startControllers } from './controllers/index.ts';
import { Faults } from './faults.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { buildCluster, type ExtraScenarios, type ScenarioOptions } from './scenarios/index.ts';
import { type AccessRule, ALLOW_ALL, Authenticator, type TokenGrant } from './server/auth.ts';
import { startApiServer, type TlsHandshakes } from './server/server.ts';
import { createCertificates } from './tls.ts';

export interface SimOptions {
  /** Scenario names, composed in order (default `healthy`). */
  scenarios?: string[];
  scenario?: ScenarioOptions;
  /** Scenarios beyond the built-in ones, by the names `scenarios` may use. */
  extraScenarios?: ExtraScenarios;
  /** A cluster built by the caller instead of from scenarios. */
  cluster?: SimCluster;
  host?: string;
  port?: number;
  /** Controller timings; false turns the controllers off. */
  controllers?: { cepDelayMs?: number; readyDelayMs?: number } | false;
}

export interface Sim {
  url: string;
  caPem: string;
  cluster: SimCluster;
  faults: Faults;
  auth: Authenticator;
  /** A token allowed everything (cluster-admin). */
  admin: TokenGrant;
  /** A token allowed exactly `rules`, for least-privilege tests. */
  issueToken(user: string, rules: AccessRule[]): TokenGrant;
  /** Kubeconfig YAML (context `sim`) for a token, admin by default. */
  kubeconfig(token?: string): string;
  /** The server's TLS handshakes so far, full and resumed. */
  tlsHandshakes(): TlsHandshakes;
  close(): Promise<void>;
}

/** Builds the scenario's cluster and serves it as a Kubernetes API over HTTPS. */
export async function startSim(options: SimOptions = {}): Promise<Sim> {
  const cluster =
    options.cluster ??
    buildCluster(options.scenarios ?? ['healthy'], options.scenario, options.extraScenarios);
  const host = options.host ?? '127.0.0.1';
  const tls = await createCertificates({ hosts: [host] });
  const auth = new Authenticator();
  const admin = auth.issue('kubernetes-admin', ALLOW_ALL);
  const faults = new Faults();
  const stopControllers =
    options.controllers === false ? () => {} : startControllers(cluster, options.controllers);
  const server = await startApiServer({
    cluster,
    auth,
    faults,
    tls: { certPem: tls.certPem, keyPem: tls.keyPem },
    host,
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  return {
    url: server.url,
    caPem: tls.caPem,
    cluster,
    faults,
    auth,
    admin,
    issueToken: (user, rules) => auth.issue(user, rules),
    kubeconfig: (token = admin.token) =>
      kubeconfigYaml({ server: server.url, caPem: tls.caPem, token, cluster: cluster.name }),
    tlsHandshakes: server.tlsHandshakes,
    close: async () => {
      stopControllers();
      await server.close();
    },
  };
}
