import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigYaml, writeKubeconfig } from '../../sim/kubeconfig.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBsim\n-----END CERTIFICATE-----\n';
const base = { server: 'https://127.0.0.1:6443', caPem: CA, token: 'tok-123' };

describe('kubeconfigYaml', () => {
  it('loads into client-node with the sim context current', () => {
    const config = new KubeConfig();
    config.loadFromString(kubeconfigYaml(base));
    expect(config.getCurrentContext()).toBe('sim');
    expect(config.getCurrentCluster()).toMatchObject({ name: 'sim', server: 'https://127.0.0.1:6443' });
    expect(Buffer.from(config.getCurrentCluster()?.caData ?? '', 'base64').toString()).toBe(CA);
    expect(config.getCurrentUser()).toMatchObject({ name: 'sim', token: 'tok-123' });
  });

  it('names the cluster, user and namespace as asked', () => {
    const config = new KubeConfig();
    config.loadFromString(
      kubeconfigYaml({ ...base, cluster: 'shop-prod', user: 'responder', namespace: 'kube-system' }),
    );
    expect(config.getCurrentContext()).toBe('sim');
    expect(config.getContextObject('sim')).toMatchObject({
      cluster: 'shop-prod',
      user: 'responder',
      namespace: 'kube-system',
    });
    expect(config.getCurrentCluster()?.name).toBe('shop-prod');
  });

  it('is a v1 Config document with the kubeconfig field names', () => {
    const document = parse(kubeconfigYaml({ ...base, context: 'other' }));
    expect(document).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'sim',
          cluster: { server: base.server, 'certificate-authority-data': Buffer.from(CA).toString('base64') },
        },
      ],
      users: [{ name: 'sim', user: { token: 'tok-123' } }],
      contexts: [{ name: 'other', context: { cluster: 'sim', user: 'sim' } }],
      'current-context': 'other',
      preferences: {},
    });
  });
});

describe('writeKubeconfig', () => {
  it('writes the document readable by its owner only, even over an existing file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-kubeconfig-')), 'config');
    writeFileSync(path, 'old', { mode: 0o644 });
    chmodSync(path, 0o644);
    writeKubeconfig(path, base);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(kubeconfigYaml(base));
  });
});
