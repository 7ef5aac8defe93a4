import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

/** The flags that name a cluster; the test gives every example a simulated one instead. */
const CLUSTER_FLAGS = new Set(['--sim', '--context', '--kubeconfig', '--cluster', '--cilium-namespace']);

/** An example's words with its cluster replaced by a healthy simulated one. */
function onSimulator(words: string[]): string[] {
  const kept = words.filter((word, i) => !CLUSTER_FLAGS.has(word) && !CLUSTER_FLAGS.has(words[i - 1] ?? ''));
  return [...kept, '--sim', 'healthy', '--no-state'];
}

describe('responder run --help', () => {
  it('shows examples that run as written: their runbooks, flags and --set params are accepted', async () => {
    const help = await runCli(['run', '--help']);
    const examples = [...help.output.matchAll(/^\s+\$ responder (run .*?)\s*(?:#.*)?$/gm)].map((m) =>
      (m[1] as string).split(/\s+/),
    );
    expect(examples.length).toBeGreaterThanOrEqual(4);
    expect(examples.some((words) => words.includes('--set'))).toBe(true);
    for (const words of examples) {
      const { code, output } = await runCli(onSimulator(words));
      expect({ example: words.join(' '), code, output: code === 0 ? '' : output }).toEqual({
        example: words.join(' '),
        code: 0,
        output: '',
      });
    }
  }, 240_000);
});
