import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSeq, parseDocument } from 'yaml';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { RUNBOOK_ID } from '../../sdk/rules.ts';

const title = (id: string) => id.replace(/-/g, ' ');

/**
 * The params' names, as the built-in runbooks name theirs: `kube-proxy-coexistence` →
 * `kubeProxyCoexistenceParams` (the schema) and `KubeProxyCoexistenceParams` (its type).
 */
export function paramsNames(id: string): { schema: string; type: string } {
  const words = id.split('-').filter(Boolean);
  const camel = words.map((word, i) => (i === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join('');
  // An identifier cannot start with a digit (`3tier` → `runbook3tierParams`).
  const schema = `${/^[0-9]/.test(camel) ? `runbook${camel}` : camel}Params`;
  return { schema, type: schema[0]?.toUpperCase() + schema.slice(1) };
}

function files(id: string): Record<string, string> {
  const params = paramsNames(id);
  return {
    [`runbooks/${id}/params.ts`]: `import { z } from 'cilium-responder/sdk';

// \`--set maxNotReady=1 --set nodes=a,b\` and Slack's \`maxNotReady=1\` are read as these types.
export const ${params.schema} = z.object({
  maxNotReady: z.int().min(0).default(0).describe('agents that may be not ready before it reports them'),
  nodes: z.array(z.string()).optional().describe('only the agents on these nodes (default: every node)'),
});

export type ${params.type} = z.output<typeof ${params.schema}>;
`,
    [`runbooks/${id}/index.ts`]: `import { defineRunbook } from 'cilium-responder/sdk';
import { ${params.schema} } from './params.ts';
import { check } from './steps/check.ts';

export default defineRunbook({
  id: '${id}',
  title: '${title(id)}',
  summary: 'What it checks, and what it may do.',
  params: ${params.schema},
  // Alert names that start it (routes in responder.config.yaml may name it too).
  answers: [],
  // Kubernetes reads beyond the responder's own (get, list, watch); \`responder rbac\` includes them.
  permissions: [],
  steps: [check],
});
`,
    [`runbooks/${id}/steps/check.ts`]: `import { defineStep, evidence, finding, outcome, statusFor } from 'cilium-responder/sdk';
import type { ${params.type} } from '../params.ts';

/** Reads through ctx.kube and ctx.cilium; writes only through ctx.actuator. */
export const check = defineStep<${params.type}>({
  id: 'check',
  title: 'the check',
  run: async (ctx) => {
    const { maxNotReady, nodes } = ctx.params;
    const agents = (await ctx.cilium.agents()).filter((agent) => !nodes || nodes.includes(agent.node));
    const notReady = agents.filter((agent) => !agent.ready);
    const findings =
      notReady.length > maxNotReady
        ? notReady.map((agent) =>
            finding({
              code: 'AGENT_NOT_READY',
              target: agent.node,
              message: \`Cilium agent \${agent.name} is not ready\`,
              fix: \`kubectl -n \${agent.namespace} logs \${agent.name}\`,
            }),
          )
        : [];
    const summary = \`\${agents.length - notReady.length} of \${agents.length} agents ready (\${maxNotReady} may not be)\`;
    return outcome(statusFor(findings), summary, {
      findings,
      evidence: [evidence('agents', agents.map((agent) => agent.node).join(', '))],
    });
  },
});
`,
    [`runbooks/${id}/README.md`]: `# ${id}

**Checks**: what the runbook looks at, and what counts as broken.

**May do**: nothing (read-only), or which writes, through the actuator, within which limits.

**Fix by hand**: the commands a person runs.
`,
    [`test/${id}.test.ts`]: `import { startCluster } from 'cilium-responder/testing';
import { expect, test } from 'vitest';
import runbook from '../runbooks/${id}/index.ts';

test('${id} on a healthy simulated cluster', async () => {
  const cluster = await startCluster({ scenarios: ['healthy'] });
  try {
    const report = await cluster.run(runbook);
    expect(report.verdict).toBe('healthy');
  } finally {
    await cluster.close();
  }
}, 60_000);
`,
  };
}

/** Writes the runbook's files under `dir`; refuses a bad or taken id, or files that exist, before writing any. */
export async function scaffoldRunbook(id: string, dir: string): Promise<string[]> {
  if (!RUNBOOK_ID.test(id))
    throw new Error(`runbook id "${id}" must be lowercase letters, digits and dashes`);
  if (id === 'all' || (RUNBOOK_IDS as readonly string[]).includes(id))
    throw new Error(`runbook id "${id}" is taken by a built-in runbook; choose another`);
  const planned = Object.entries(files(id));
  const existing = planned.map(([path]) => path).filter((path) => existsSync(join(dir, path)));
  if (existing.length > 0) throw new Error(`not overwriting ${existing.join(', ')}`);
  for (const [path, text] of planned) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text, { flag: 'wx' });
  }
  return planned.map(([path]) => path);
}

/**
 * Names the runbook in `dir`'s responder.config.yaml (`runbooks:`), keeping the file's comments;
 * returns false when there is no such file or it names the runbook already.
 */
export async function addToConfig(id: string, dir: string): Promise<boolean> {
  const file = join(dir, 'responder.config.yaml');
  if (!existsSync(file)) return false;
  const document = parseDocument(await readFile(file, 'utf8'));
  const entry = `./runbooks/${id}/index.ts`;
  const runbooks = document.get('runbooks');
  if (isSeq(runbooks)) {
    if (runbooks.items.some((item) => String((item as { value?: unknown }).value ?? item) === entry))
      return false;
    runbooks.add(entry);
  } else document.set('runbooks', [entry]);
  await writeFile(file, document.toString());
  return true;
}
