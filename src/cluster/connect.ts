/**
 * One way in to a cluster, whatever the config names: an EKS cluster, a context of the user's
 * kubeconfig, or the simulator. Each becomes a KubeConfig and then the same facades.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { type Ec2Reader, ec2Reader } from '../aws/ec2.ts';
import type { AwsSide } from '../aws/side.ts';
import { clusterAccess } from './access.ts';
import type { EksOptions } from './eks.ts';
import type { ClusterAccess, ClusterRef } from './types.ts';

export interface ConnectOptions extends EksOptions {
  /** Per API request (the facade's default when absent). */
  requestTimeoutMs?: number;
}

export async function connect(ref: ClusterRef, options: ConnectOptions = {}): Promise<ClusterAccess> {
  const { ciliumNamespace } = ref;
  const timeout = options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {};
  switch (ref.kind) {
    case 'eks': {
      // The EKS and STS clients load only for an EKS cluster (a CLI run on a kubeconfig never needs them).
      const { eksKubeConfig } = await import('./eks.ts');
      const { kubeConfig, token, credentials } = await eksKubeConfig(ref, options);
      return {
        ...clusterAccess(kubeConfig, { name: ref.name, ciliumNamespace, token, ...timeout }),
        aws: awsSide(ref, credentials),
      };
    }
    case 'kubeconfig': {
      const kubeConfig = kubeconfigContext(ref.path, ref.context);
      const access = clusterAccess(kubeConfig, {
        name: kubeConfig.getCurrentContext(),
        ciliumNamespace,
        ...timeout,
      });
      if (!ref.aws) return access;
      // The AWS credential code loads only for a kubeconfig cluster with an AWS side.
      const { clusterCredentials } = await import('../aws/credentials.ts');
      return { ...access, aws: awsSide(ref.aws, clusterCredentials(ref.aws, options.credentials)) };
    }
    case 'sim': {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(ref.kubeconfig);
      return clusterAccess(kubeConfig, { name: kubeConfig.getCurrentContext(), ciliumNamespace, ...timeout });
    }
  }
}

/**
 * A cluster's AWS side: EC2 reads in its region, signed with its credentials. The EC2 client is
 * loaded at the first read: only the tunnel runbook reads EC2, and the client is a sixth of the code
 * a run would otherwise load before its first request.
 */
function awsSide(side: AwsSide, credentials: AwsCredentialIdentityProvider | undefined) {
  let loaded: Promise<Ec2Reader> | undefined;
  const reader = () => {
    loaded ??= Promise.all([import('@aws-sdk/client-ec2'), import('../aws/credentials.ts')]).then(
      ([{ EC2Client }, { clusterClientConfig }]) =>
        ec2Reader(new EC2Client(clusterClientConfig(side, credentials)), side.region),
    );
    return loaded;
  };
  const ec2: Ec2Reader = {
    region: side.region,
    instanceNetworks: async (ids) => (await reader()).instanceNetworks(ids),
    securityGroups: async (ids) => (await reader()).securityGroups(ids),
  };
  return { region: side.region, ec2 };
}

/** The kubeconfig file with `context` (or its current-context) selected, checked to exist. */
function kubeconfigContext(file: string | undefined, context: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  const path = file ?? (process.env.KUBECONFIG || join(homedir(), '.kube', 'config'));
  if (!file && !process.env.KUBECONFIG && !existsSync(path))
    throw new Error(`no kubeconfig: ${path} does not exist; set KUBECONFIG or pass --kubeconfig`);
  try {
    if (file) kubeConfig.loadFromFile(file);
    // As kubectl does: $KUBECONFIG (a list of files, merged), else ~/.kube/config.
    else kubeConfig.loadFromDefault();
  } catch (error) {
    // The client reads an empty file as a document without `clusters` and fails on that.
    if (isEmptyFile(path)) throw emptyKubeconfig(path);
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`error loading config file "${path}": ${message}`, { cause: error });
  }
  const available = kubeConfig.getContexts().map((entry) => entry.name);
  if (available.length === 0 && kubeConfig.getClusters().length === 0) throw emptyKubeconfig(path);
  const availableList = available.length > 0 ? available.map((name) => `"${name}"`).join(', ') : 'none';
  const name = context ?? kubeConfig.getCurrentContext();
  if (!name) {
    throw new Error(
      `kubeconfig ${path} has no current-context; name a context (available: ${availableList})`,
    );
  }
  const selected = kubeConfig.getContextObject(name);
  if (!selected) {
    throw new Error(`context "${name}" not found in kubeconfig ${path} (available: ${availableList})`);
  }
  if (!kubeConfig.getCluster(selected.cluster)) {
    throw new Error(
      `context "${name}" in kubeconfig ${path} names cluster "${selected.cluster}", which it does not define`,
    );
  }
  kubeConfig.setCurrentContext(name);
  return kubeConfig;
}

/** client-go's words for a kubeconfig that holds nothing, with the file it read. */
const emptyKubeconfig = (path: string) =>
  new Error(
    `invalid configuration: no configuration has been provided: kubeconfig ${path} has no clusters or contexts`,
  );

function isEmptyFile(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').trim() === '';
  } catch {
    return false;
  }
}
