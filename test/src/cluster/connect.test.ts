import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AccessDeniedException,
  DescribeClusterCommand,
  type DescribeClusterCommandOutput,
  EKSClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-eks';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startSim } from '../../../sim/index.ts';
import { type Certificates, createCertificates } from '../../../sim/tls.ts';
import { connect } from '../../../src/cluster/connect.ts';
import { eksKubeConfig } from '../../../src/cluster/eks.ts';
import { type ClusterAccess, RESOURCES } from '../../../src/cluster/types.ts';

// AWS's documented example keys and the clock the awscli fixture was signed at.
const CREDENTIALS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const CLOCK = new Date('2024-05-01T12:00:00Z');

function awscliToken(): string {
  const path = new URL('../../fixtures/eks-token/aws-eks-get-token.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { status: { token: string } }).status.token;
}

let tls: Certificates;
beforeAll(async () => {
  tls = await createCertificates({ hosts: [] });
});

/**
 * A stand-in API server on 127.0.0.1 (HTTPS, as client-node insists) that answers any GET with a
 * Namespace and notes who asked.
 */
interface ApiServer {
  url: string;
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

async function startApiServer(uid: string): Promise<ApiServer> {
  const authorizations: (string | undefined)[] = [];
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    authorizations.push(request.headers.authorization);
    const name = (request.url ?? '').split('?')[0]?.split('/').pop() ?? '';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid } }));
  };
  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function namespaceUid(access: ClusterAccess): Promise<string> {
  return (await access.kube.get(RESOURCES.namespaces, undefined, 'kube-system')).metadata.uid;
}

describe('connect to EKS', () => {
  let api: ApiServer;
  // Every EKS client the connection makes; which credentials sign for a role is in test/src/aws.
  const eksMock = mockClient(EKSClient);

  beforeAll(async () => {
    api = await startApiServer('eks-uid');
  });
  afterAll(async () => {
    eksMock.restore();
    await api.close();
  });
  afterEach(() => {
    eksMock.reset();
    api.authorizations.length = 0;
  });

  function describesCluster(cluster: NonNullable<DescribeClusterCommandOutput['cluster']>) {
    eksMock.on(DescribeClusterCommand, { name: 'prod-eu' }).resolves({ cluster });
  }

  function activeCluster() {
    describesCluster({
      name: 'prod-eu',
      status: 'ACTIVE',
      endpoint: api.url,
      certificateAuthority: { data: Buffer.from(tls.caPem).toString('base64') },
    });
  }

  const connectProdEu = (roleArn?: string) =>
    connect(
      { kind: 'eks', name: 'prod-eu', region: 'eu-west-1', ...(roleArn ? { roleArn } : {}) },
      { credentials: async () => CREDENTIALS, now: () => CLOCK },
    );

  it('reaches the described endpoint, trusting its CA, with the token aws eks get-token would send', async () => {
    activeCluster();
    const access = await connectProdEu();

    expect(access.name).toBe('prod-eu');
    expect(await namespaceUid(access)).toBe('eks-uid');
    expect(api.authorizations).toEqual([`Bearer ${awscliToken()}`]);
  });

  it('sends a freshly signed token once the credentials that signed the last one are about to expire', async () => {
    activeCluster();
    let clock = CLOCK;
    let issued = 0;
    const access = await connect(
      { kind: 'eks', name: 'prod-eu', region: 'eu-west-1' },
      {
        // Temporary credentials that end 3 minutes after each is handed out.
        credentials: async () => ({
          ...CREDENTIALS,
          sessionToken: `session-${++issued}`,
          expiration: new Date(clock.getTime() + 3 * 60_000),
        }),
        now: () => clock,
      },
    );
    await namespaceUid(access);
    clock = new Date(CLOCK.getTime() + 150_000);
    await namespaceUid(access);

    const [before, after] = api.authorizations;
    expect(before).toMatch(/^Bearer k8s-aws-v1\./);
    expect(after).toMatch(/^Bearer k8s-aws-v1\./);
    expect(after).not.toBe(before);
    const sessionOf = (authorization: string | undefined) =>
      new URL(
        Buffer.from((authorization ?? '').slice('Bearer k8s-aws-v1.'.length), 'base64url').toString(),
      ).searchParams.get('X-Amz-Security-Token');
    expect([sessionOf(before), sessionOf(after)]).toEqual(['session-1', 'session-2']);
  });

  it('puts the endpoint and CA data in the KubeConfig', async () => {
    activeCluster();
    const { kubeConfig } = await eksKubeConfig(
      { kind: 'eks', name: 'prod-eu', region: 'eu-west-1' },
      { credentials: async () => CREDENTIALS },
    );
    expect(kubeConfig.getCurrentCluster()).toMatchObject({
      server: api.url,
      caData: Buffer.from(tls.caPem).toString('base64'),
      skipTLSVerify: false,
    });
  });

  it('says when the cluster does not exist', async () => {
    eksMock
      .on(DescribeClusterCommand)
      .rejects(
        new ResourceNotFoundException({ message: 'No cluster found for name: prod-eu.', $metadata: {} }),
      );
    await expect(connectProdEu()).rejects.toThrow('EKS cluster "prod-eu" not found in eu-west-1');
  });

  it('says when describing the cluster is not allowed', async () => {
    eksMock.on(DescribeClusterCommand).rejects(
      new AccessDeniedException({
        message:
          'User: arn:aws:sts::111122223333:assumed-role/responder is not authorized to perform: eks:DescribeCluster',
        $metadata: {},
      }),
    );
    await expect(connectProdEu()).rejects.toThrow(
      'not allowed to describe EKS cluster "prod-eu" in eu-west-1: User: arn:aws:sts::111122223333:assumed-role/responder is not authorized',
    );
  });

  it('refuses a cluster that is not serving', async () => {
    describesCluster({ name: 'prod-eu', status: 'CREATING' });
    await expect(connectProdEu()).rejects.toThrow(
      'EKS cluster "prod-eu" in eu-west-1 is CREATING, not ACTIVE',
    );
  });

  it('still connects while the cluster is UPDATING, since its API keeps serving', async () => {
    describesCluster({
      name: 'prod-eu',
      status: 'UPDATING',
      endpoint: api.url,
      certificateAuthority: { data: Buffer.from(tls.caPem).toString('base64') },
    });
    expect(await namespaceUid(await connectProdEu())).toBe('eks-uid');
  });
});

describe('connect through a kubeconfig', () => {
  let dir: string;
  let path: string;
  let prod: ApiServer;
  let staging: ApiServer;

  beforeAll(async () => {
    [prod, staging] = await Promise.all([startApiServer('prod-uid'), startApiServer('staging-uid')]);
    const ca = Buffer.from(tls.caPem).toString('base64');
    dir = await mkdtemp(join(tmpdir(), 'connect-test-'));
    path = join(dir, 'config');
    await writeFile(
      path,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'prod', cluster: { server: prod.url, 'certificate-authority-data': ca } },
          { name: 'staging', cluster: { server: staging.url, 'certificate-authority-data': ca } },
        ],
        users: [
          { name: 'prod-admin', user: { token: 'prod-token' } },
          { name: 'staging-admin', user: { token: 'staging-token' } },
        ],
        contexts: [
          { name: 'prod', context: { cluster: 'prod', user: 'prod-admin' } },
          { name: 'staging', context: { cluster: 'staging', user: 'staging-admin' } },
        ],
        'current-context': 'prod',
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([prod.close(), staging.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('uses the named context', async () => {
    const access = await connect({ kind: 'kubeconfig', path, context: 'staging' });
    expect(access.name).toBe('staging');
    expect(await namespaceUid(access)).toBe('staging-uid');
    expect(staging.authorizations.at(-1)).toBe('Bearer staging-token');
  });

  it("uses the file's current-context when none is named", async () => {
    const access = await connect({ kind: 'kubeconfig', path });
    expect(access.name).toBe('prod');
    expect(await namespaceUid(access)).toBe('prod-uid');
  });

  it('names the missing context and the ones there are', async () => {
    await expect(connect({ kind: 'kubeconfig', path, context: 'dev' })).rejects.toThrow(
      `context "dev" not found in kubeconfig ${path} (available: "prod", "staging")`,
    );
  });

  it('names the file it cannot read', async () => {
    const missing = join(dir, 'missing');
    await expect(connect({ kind: 'kubeconfig', path: missing })).rejects.toThrow(
      `error loading config file "${missing}": ENOENT`,
    );
  });

  it.each([
    ['empty', ''],
    ['without clusters or contexts', 'apiVersion: v1\nkind: Config\n'],
  ])('says an %s kubeconfig provides no configuration, naming the file', async (name, text) => {
    const file = join(dir, `kubeconfig-${name.replaceAll(' ', '-')}`);
    await writeFile(file, text);
    await expect(connect({ kind: 'kubeconfig', path: file })).rejects.toThrow(
      `invalid configuration: no configuration has been provided: kubeconfig ${file} has no clusters or contexts`,
    );
  });

  it('names the file and the YAML error of a kubeconfig that does not parse', async () => {
    const file = join(dir, 'kubeconfig-broken');
    await writeFile(file, 'clusters: [\n');
    await expect(connect({ kind: 'kubeconfig', path: file })).rejects.toThrow(
      `error loading config file "${file}": `,
    );
  });
});

describe('connect to the simulator', () => {
  it('reads the kubeconfig text the simulator writes', async () => {
    const sim = await startSim();
    try {
      const access = await connect({
        kind: 'sim',
        kubeconfig: sim.kubeconfig(),
        ciliumNamespace: 'kube-system',
      });
      expect(access.name).toBe('sim');
      expect(access.cilium.namespace).toBe('kube-system');
      expect((await access.kube.get(RESOURCES.namespaces, undefined, 'kube-system')).metadata.name).toBe(
        'kube-system',
      );
    } finally {
      await sim.close();
    }
  });
});
