import { describe, expect, it } from 'vitest';
import { appPod, fixtureCluster, NODES, run } from './fixtures.ts';

const sh = (script: string) => run(fixtureCluster(), ['sh', '-c', script]);

describe('sh -c in a simulated container', () => {
  it('runs commands separated by ; and newlines, each as the container runs it', async () => {
    expect(await sh("stat -c %i /run/cilium/cgroupv2; readlink /proc/self/ns/cgroup\necho 'a  b'")).toEqual({
      code: 0,
      stdout: '1\ncgroup:[4026531835]\na  b\n',
      stderr: '',
    });
  });

  it('exits with the status of the last command', async () => {
    expect((await sh('true; false')).code).toBe(1);
    expect((await sh('false; true')).code).toBe(0);
    expect((await sh('')).code).toBe(0);
    expect((await sh('exit 3; echo not reached')).code).toBe(3);
  });

  it('expands $? to the status of the command before, in printf arguments and double quotes', async () => {
    const result = await sh(
      `stat -c %i /run/cilium/nope; printf '\\n@@responder %s %d\\n' stat $?; echo "after: $?"`,
    );
    expect(result).toEqual({
      code: 0,
      stdout: '\n@@responder stat 1\nafter: 0\n',
      stderr: "stat: cannot statx '/run/cilium/nope': No such file or directory\n",
    });
  });

  it('runs the right side of || only on failure, of && only on success', async () => {
    expect((await sh('false || echo fallback')).stdout).toBe('fallback\n');
    expect((await sh('true || echo fallback')).stdout).toBe('');
    expect((await sh('true && echo yes || echo no')).stdout).toBe('yes\n');
    expect((await sh('false && echo yes || echo no')).stdout).toBe('no\n');
    expect((await sh('false ||\necho next-line')).stdout).toBe('next-line\n');
  });

  it('runs a { ...; } group as one command of an and-or list', async () => {
    const result = await sh(`false || { printf 'code %d\\n' $?; echo second; }; echo after`);
    expect(result.stdout).toBe('code 1\nsecond\nafter\n');
  });

  it('keeps quoted text as one argument: single quotes literal, double quotes with escapes', async () => {
    expect((await sh(`printf '%s|' 'it'\\''s' "a \\"b\\" \\$c" x\\ y`)).stdout).toBe(`it's|a "b" $c|x y|`);
    expect((await sh(`stat -c '%i %n' '/run/cilium/cgroupv2'`)).stdout).toBe('1 /run/cilium/cgroupv2\n');
  });

  it('sends stdout to stderr with >&2 and stderr to stdout with 2>&1', async () => {
    expect(await sh("printf 'to err\\n' >&2; stat -c %i /nope 2>&1")).toEqual({
      code: 1,
      stdout: "stat: cannot statx '/nope': No such file or directory\n",
      stderr: 'to err\n',
    });
  });

  it('reports a command the container lacks as dash does, status 127', async () => {
    expect(await sh('echo one\nnosuchtool --flag')).toEqual({
      code: 127,
      stdout: 'one\n',
      stderr: 'sh: 2: nosuchtool: not found\n',
    });
  });

  it('runs in any container, with only what that container has', async () => {
    const result = await run(fixtureCluster(), ['sh', '-c', 'echo hi; bpftool version'], {
      pod: appPod(NODES[0]),
      container: 'web',
    });
    expect(result).toEqual({ code: 127, stdout: 'hi\n', stderr: 'sh: 1: bpftool: not found\n' });
  });

  it('complains about a non-numeric %d as dash does', async () => {
    expect(await sh("printf '%d\\n' abc")).toEqual({
      code: 1,
      stdout: '0\n',
      stderr: 'sh: 1: printf: abc: expected numeric value\n',
    });
  });

  it.each([
    ['echo a | cat', 'pipelines (|)'],
    ['sleep 1 &', 'background jobs (&)'],
    ['echo $HOME', 'the expansion $H'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${x}, not a template
    ['echo "${x}"', 'the expansion ${'],
    ['echo $(hostname)', 'the expansion $('],
    ['echo `hostname`', 'command substitution'],
    ['if true; then echo; fi', 'the reserved word "if"'],
    ['for x in a; do echo; done', 'the reserved word "for"'],
    ['x=1', 'variable assignments'],
    ['echo a > /tmp/out', 'the redirection >'],
    ['cat < /etc/hostname', 'the redirection <'],
    ['ls *', 'pathname expansion'],
    ['cd ~', 'tilde expansion'],
    ['(echo a)', 'subshells'],
    ["printf '%5d' 1", 'the printf conversion %5'],
  ])('refuses %j loudly, exit 2, running nothing', async (script, what) => {
    const result = await sh(`echo first; ${script}`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`sh: the simulated sh does not support ${what}`);
    if (!script.startsWith('printf')) expect(result.stdout).toBe('');
  });

  it.each([
    ["echo 'open", 'Unterminated quoted string'],
    ['; echo', '";" unexpected'],
    ['echo a &&', 'end of file unexpected'],
    ['{ echo a }', 'end of file unexpected'],
  ])('rejects the syntax error in %j with status 2', async (script, message) => {
    expect(await sh(script)).toEqual({ code: 2, stdout: '', stderr: `sh: Syntax error: ${message}\n` });
  });

  it('runs only -c SCRIPT', async () => {
    expect((await run(fixtureCluster(), ['sh'])).code).toBe(2);
    expect((await run(fixtureCluster(), ['sh', '-e', '-c', 'true'])).stderr).toContain('only `sh -c SCRIPT`');
    expect(await run(fixtureCluster(), ['/bin/sh', '-c'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'sh: 0: -c requires an argument\n',
    });
  });
});
