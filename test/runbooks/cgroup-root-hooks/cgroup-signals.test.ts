import { describe, expect, it } from 'vitest';
import { parseCgroupNamespace, parseInode } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { fixtureCluster, run } from '../../sim/exec/fixtures.ts';

const OWN_CONTAINER = { cgroup: { mountIsHostRoot: false, privateNamespace: true, containerInode: 48213 } };

describe('parseInode (stat -c %i)', () => {
  it('reads the simulator: 1 for the host root, the container cgroup otherwise', async () => {
    const command = ['stat', '-c', '%i', '/run/cilium/cgroupv2'];
    expect(parseInode((await run(fixtureCluster(), command)).stdout)).toBe(1);
    expect(parseInode((await run(fixtureCluster(OWN_CONTAINER), command)).stdout)).toBe(48213);
  });

  it.each([
    ['empty output', ''],
    ['a stat error', "stat: cannot statx '/run/cilium/cgroupv2': No such file or directory"],
    ['two inodes', '1\n2\n'],
    ['a negative number', '-1'],
    ['a word', 'inode'],
  ])('throws on %s', (_what, output) => {
    expect(() => parseInode(output)).toThrow(/not an inode number/);
  });
});

describe('parseCgroupNamespace (readlink /proc/self/ns/cgroup)', () => {
  it("tells the host's namespace from a private one, on the simulator", async () => {
    const command = ['readlink', '/proc/self/ns/cgroup'];
    expect(parseCgroupNamespace((await run(fixtureCluster(), command)).stdout)).toEqual({
      inode: 4026531835,
      host: true,
    });
    const own = parseCgroupNamespace((await run(fixtureCluster(OWN_CONTAINER), command)).stdout);
    expect(own.host).toBe(false);
    expect(own.inode).not.toBe(4026531835);
  });

  it.each([
    ['empty output', ''],
    ['another namespace', 'net:[4026531840]'],
    ['no brackets', 'cgroup:4026531835'],
    ['a path', '/proc/self/ns/cgroup'],
  ])('throws on %s', (_what, output) => {
    expect(() => parseCgroupNamespace(output)).toThrow(/not cgroup:\[<inode>\]/);
  });
});
