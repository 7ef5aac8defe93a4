import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { rbacManifest } from '../../cdk/rbac.ts';

const documentsOf = (manifest: string) => parseAllDocuments(manifest).map((d) => d.toJS());

describe('the shipped RBAC', () => {
  it('deploy/rbac.yaml is what src/cluster/permissions.ts says (regenerate with `responder rbac`)', () => {
    expect(readFileSync('deploy/rbac.yaml', 'utf8')).toBe(rbacManifest());
  });

  it('reads, evicts and lists cluster-wide only what a code path uses, and no secrets or configmaps', () => {
    const clusterRole = documentsOf(rbacManifest('cilium')).find((d) => d.kind === 'ClusterRole');
    expect(clusterRole.rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['list'] },
      { apiGroups: [''], resources: ['events'], verbs: ['list'] },
      { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list'] },
      { apiGroups: ['cilium.io'], resources: ['ciliumendpoints'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
    ]);
  });

  it('reads cilium-config only, and execs into and restarts agents, only in the Cilium namespace', () => {
    const role = documentsOf(rbacManifest('cilium')).find((d) => d.kind === 'Role');
    expect(role.metadata.namespace).toBe('cilium');
    expect(role.rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['cilium-config'] },
      { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
    ]);
  });

  it('`responder rbac` prints that manifest', async () => {
    const { rbacCommand } = await import('../../cli/commands/rbac.ts');
    let printed = '';
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      printed += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      await rbacCommand().parseAsync(['--cilium-namespace', 'cilium'], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    expect(printed).toBe(rbacManifest('cilium'));
    const role = documentsOf(printed).find((d) => d.kind === 'Role');
    const configmaps = documentsOf(printed)
      .flatMap((d) => d.rules ?? [])
      .filter((rule: { resources: string[] }) => rule.resources.includes('configmaps'));
    expect(configmaps).toEqual([role.rules[0]]);
    expect(configmaps[0].resourceNames).toEqual(['cilium-config']);
  });
});
