import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { rbacManifest } from '../../cdk/rbac.ts';

describe('the shipped RBAC', () => {
  it('deploy/rbac.yaml is what src/cluster/permissions.ts says (regenerate with `responder rbac`)', () => {
    expect(readFileSync('deploy/rbac.yaml', 'utf8')).toBe(rbacManifest());
  });

  it('execs into and restarts agents only in the Cilium namespace, and reads no secrets', () => {
    const documents = parseAllDocuments(rbacManifest('cilium')).map((d) => d.toJS());
    const clusterRole = documents.find((d) => d.kind === 'ClusterRole');
    const role = documents.find((d) => d.kind === 'Role');
    const clusterResources = clusterRole.rules.flatMap((r: { resources: string[] }) => r.resources);
    expect(clusterResources).not.toContain('pods/exec');
    expect(clusterResources).not.toContain('secrets');
    expect(clusterRole.rules).toContainEqual({
      apiGroups: [''],
      resources: ['pods/eviction'],
      verbs: ['create'],
    });
    expect(role.metadata.namespace).toBe('cilium');
    expect(role.rules).toEqual([
      { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
    ]);
  });
});
