import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rbacManifest } from '../../cdk/rbac.ts';
import { BUILT_IN_RUNBOOKS, loadConfigWithRunbooks, loadRunbookSet } from '../../runbooks/team.ts';
import { catalogWithTeam, TEAM_CATALOG_ENV } from '../../runbooks/team-catalog.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

describe("a config's team runbooks", () => {
  it('load (TypeScript directly) after the built-in ones, with their declared reads', async () => {
    const set = await loadRunbookSet(['./team-runbooks/csi-drivers.ts'], FIXTURES);
    expect(set.ids).toEqual([...BUILT_IN_RUNBOOKS.ids, 'csi-drivers']);
    expect(set.catalog.at(-1)).toMatchObject({
      id: 'csi-drivers',
      title: 'CSI drivers listed',
      writes: false,
    });
    expect(set.permissions).toEqual([
      { apiGroups: ['storage.k8s.io'], resources: ['csidrivers'], verbs: ['get', 'list'], scope: 'cluster' },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['list'], scope: 'cluster' },
    ]);
  });

  it('let routes name them, and the RBAC include their reads', async () => {
    const { config, runbooks } = await loadConfigWithRunbooks(`${FIXTURES}team.config.yaml`);
    expect(config.routes[0]?.runbook).toBe('csi-drivers');
    const manifest = rbacManifest('kube-system', runbooks.permissions);
    expect(manifest).toContain('storage.k8s.io');
    expect(manifest).toContain('csidrivers');
    expect(rbacManifest('kube-system')).not.toContain('csidrivers');
  });

  it.each([
    [
      './team-runbooks/clash.ts',
      'runbook module ./team-runbooks/clash.ts: id "unmanaged-pods" is a built-in runbook\'s; choose another',
    ],
    [
      './team-runbooks/not-a-runbook.ts',
      'runbook module ./team-runbooks/not-a-runbook.ts: its default export is not a runbook',
    ],
    ['./team-runbooks/missing.ts', 'runbook module ./team-runbooks/missing.ts: cannot load it'],
  ])('%s is refused, naming the file and what is wrong', async (spec, message) => {
    await expect(loadRunbookSet([spec], FIXTURES)).rejects.toThrow(message);
  });

  it('refuses the same runbook twice', async () => {
    const spec = './team-runbooks/csi-drivers.ts';
    await expect(loadRunbookSet([spec, spec], FIXTURES)).rejects.toThrow(
      `runbook module ${spec}: id "csi-drivers" is also ${spec}'s`,
    );
  });
});

describe('the catalog the deployed functions read', () => {
  it('adds the team runbooks from the variable the construct sets', () => {
    const catalog = catalogWithTeam(
      JSON.stringify([{ id: 'csi-drivers', title: 'CSI', writes: false, params: ['limit'] }]),
    );
    expect(catalog.map((r) => r.id)).toEqual([...BUILT_IN_RUNBOOKS.ids, 'csi-drivers']);
    expect(catalogWithTeam(undefined).map((r) => r.id)).toEqual(BUILT_IN_RUNBOOKS.ids);
    expect(() => catalogWithTeam('[{"id":"x"}]')).toThrow(TEAM_CATALOG_ENV);
  });
});
