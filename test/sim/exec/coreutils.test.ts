import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../sim/exec/run.ts';
import { ExecStartError } from '../../../sim/exec/start-error.ts';
import { AGENT_SCOPE, agentPod, appPod, fixtureCluster, NODES, run } from './fixtures.ts';

describe('coreutils in the agent container', () => {
  it('stats the cgroup root as inode 1 only when the mount is the host root', async () => {
    expect((await run(fixtureCluster(), ['stat', '-c', '%i', '/run/cilium/cgroupv2'])).stdout).toBe('1\n');
    const broken = fixtureCluster({
      cgroup: { mountIsHostRoot: false, privateNamespace: true, containerInode: 31337 },
    });
    expect((await run(broken, ['stat', '-c', '%i', '/run/cilium/cgroupv2'])).stdout).toBe('31337\n');
    expect((await run(broken, ['stat', '--format=%i %n', '/sys/fs/cgroup'])).stdout).toBe(
      '31337 /sys/fs/cgroup\n',
    );
    const fixedPrivate = fixtureCluster({
      cgroup: { mountIsHostRoot: true, privateNamespace: true, containerInode: 31337 },
    });
    expect(
      (await run(fixedPrivate, ['stat', '-c', '%i', '/run/cilium/cgroupv2', '/sys/fs/cgroup'])).stdout,
    ).toBe('1\n31337\n');
  });

  it('follows a configured cgroup root and reports the file system type', async () => {
    const cluster = fixtureCluster({ cgroup: { root: '/sys/fs/cgroup/unified' } });
    expect((await run(cluster, ['stat', '-f', '-c', '%T', '/sys/fs/cgroup/unified'])).stdout).toBe(
      'cgroup2fs\n',
    );
    expect((await run(cluster, ['stat', '-c', '%i', '/sys/fs/cgroup/unified'])).stdout).toBe('1\n');
  });

  it('fails stat on a missing path as coreutils does', async () => {
    expect(await run(fixtureCluster(), ['stat', '-c', '%i', '/run/cilium/nope'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "stat: cannot statx '/run/cilium/nope': No such file or directory\n",
    });
  });

  it('reads the cgroup namespace link: the host one unless the namespace is private', async () => {
    expect((await run(fixtureCluster(), ['readlink', '/proc/self/ns/cgroup'])).stdout).toBe(
      'cgroup:[4026531835]\n',
    );
    const own = (
      await run(fixtureCluster({ cgroup: { privateNamespace: true } }), ['readlink', '/proc/self/ns/cgroup'])
    ).stdout;
    expect(own).toMatch(/^cgroup:\[40265\d{5}\]\n$/);
    expect(own).not.toBe('cgroup:[4026531835]\n');
    expect((await run(fixtureCluster(), ['readlink', '/etc/hostname'])).code).toBe(1);
  });

  it('shows the process cgroup relative to its namespace', async () => {
    expect((await run(fixtureCluster(), ['cat', '/proc/self/cgroup'])).stdout).toBe(`0::${AGENT_SCOPE}\n`);
    expect(
      (await run(fixtureCluster({ cgroup: { privateNamespace: true } }), ['cat', '/proc/self/cgroup']))
        .stdout,
    ).toBe('0::/\n');
  });

  it('shows the cgroup mount root in mountinfo: / for the host root, the container path otherwise', async () => {
    const healthy = (await run(fixtureCluster(), ['cat', '/proc/self/mountinfo'])).stdout;
    expect(healthy).toMatch(
      /^\d+ \d+ 0:26 \/ \/run\/cilium\/cgroupv2 rw,relatime master:\d+ - cgroup2 none rw,nsdelegate,memory_recursiveprot$/m,
    );
    const broken = (
      await run(fixtureCluster({ cgroup: { mountIsHostRoot: false } }), ['cat', '/proc/self/mountinfo'])
    ).stdout;
    const line = broken.split('\n').find((l) => l.includes(' /run/cilium/cgroupv2 '));
    expect(line?.split(' ')[3]).toBe(AGENT_SCOPE);
    expect(broken).toMatch(
      /^\d+ \d+ 0:26 \/ \/sys\/fs\/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup /m,
    );
  });

  it('lists /sys/fs/cgroup before the Cilium mount in /proc/mounts, as bpftool relies on', async () => {
    const mounts = (await run(fixtureCluster(), ['cat', '/proc/mounts'])).stdout;
    const cgroupMounts = mounts
      .split('\n')
      .filter((l) => l.split(' ')[2] === 'cgroup2')
      .map((l) => l.split(' ')[1]);
    expect(cgroupMounts).toEqual(['/sys/fs/cgroup', '/run/cilium/cgroupv2']);
  });

  it('answers cat, echo, hostname, uname, true and false', async () => {
    const cluster = fixtureCluster();
    expect((await run(cluster, ['cat', '/etc/hostname'])).stdout).toBe(`${NODES[0]}\n`);
    expect((await run(cluster, ['hostname'])).stdout).toBe(`${NODES[0]}\n`);
    expect((await run(cluster, ['echo', 'a', 'b'])).stdout).toBe('a b\n');
    expect((await run(cluster, ['/bin/echo', '-n', 'x'])).stdout).toBe('x');
    expect((await run(cluster, ['uname', '-r'])).stdout).toMatch(/^6\.1\.\d+-\d+\.\d+\.amzn2023\.x86_64\n$/);
    expect((await run(cluster, ['true'])).code).toBe(0);
    expect((await run(cluster, ['false'])).code).toBe(1);
    expect(await run(cluster, ['cat', '/nope', '/run'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cat: /nope: No such file or directory\ncat: /run: Is a directory\n',
    });
  });

  it('bounds a command with timeout, and reports a command it cannot run', async () => {
    const cluster = fixtureCluster();
    expect((await run(cluster, ['timeout', '5', 'echo', 'hi'])).stdout).toBe('hi\n');
    expect(await run(cluster, ['timeout', '5', 'nope'])).toEqual({
      code: 127,
      stdout: '',
      stderr: "timeout: failed to run command 'nope': No such file or directory\n",
    });
    expect((await run(cluster, ['timeout', 'soon', 'true'])).code).toBe(125);
  });

  it('reads stdin with cat until the client closes it', async () => {
    const cluster = fixtureCluster();
    let out = '';
    async function* input() {
      yield Buffer.from('one\n');
      yield Buffer.from('two\n');
    }
    const code = await runCommand({ cluster, pod: appPod(NODES[0]), container: 'web' }, ['cat'], {
      stdout: (c) => {
        out += c.toString();
      },
      stderr: () => undefined,
      signal: AbortSignal.timeout(1000),
      stdin: input(),
    });
    expect(code).toBe(0);
    expect(out).toBe('one\ntwo\n');
  });
});

describe('other containers', () => {
  const app = { pod: appPod(NODES[0]), container: 'web' };

  it('have only the basic tools', async () => {
    const cluster = fixtureCluster();
    expect((await run(cluster, ['hostname'], app)).stdout).toBe('web-0\n');
    expect((await run(cluster, ['cat', '/etc/hostname'], app)).stdout).toBe('web-0\n');
    expect((await run(cluster, ['echo', 'ok'], app)).stdout).toBe('ok\n');
    await expect(run(cluster, ['cilium-dbg', 'status'], app)).rejects.toBeInstanceOf(ExecStartError);
    await expect(run(cluster, ['stat', '-c', '%i', '/'], app)).rejects.toThrow(
      'exec: "stat": executable file not found in $PATH',
    );
  });

  it('include a non-agent container of the agent pod', async () => {
    const cluster = fixtureCluster();
    await expect(
      run(cluster, ['bpftool', 'cgroup', 'tree'], { pod: agentPod(NODES[0]), container: 'mount-cgroup' }),
    ).rejects.toBeInstanceOf(ExecStartError);
  });
});
