import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { scaffoldRunbook } from './new-runbook.ts';

/** The runbook `init` writes, to start from. */
export const EXAMPLE_RUNBOOK = 'cilium-agents-ready';

/**
 * What a team's project needs beside this package, at the versions this package is built and
 * tested with: the CDK (the construct's peers and the cdk command), esbuild (the functions are
 * bundled locally), TypeScript, vitest, tsx (runs cdk/app.ts) and Node's types.
 */
const TOOLS = [
  'aws-cdk',
  'aws-cdk-lib',
  'constructs',
  'esbuild',
  'typescript',
  'vitest',
  'tsx',
  '@types/node',
];
const versions: Record<string, string> = { ...packageJson.dependencies, ...packageJson.devDependencies };

/** npm init's placeholder test script, replaced; a team's own script is kept. */
const NPM_INIT_TEST = 'echo "Error: no test specified" && exit 1';

const FILES: Record<string, string> = {
  'cdk.json': `${JSON.stringify({ app: 'npx tsx cdk/app.ts', context: { 'cli-telemetry': false }, notices: false }, null, 2)}\n`,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['runbooks', 'scenarios', 'test', 'cdk'],
    },
    null,
    2,
  )}\n`,
  'responder.config.yaml': `# The responder's config: your clusters, which alerts start which runbooks, who may approve.
# Every key is explained in node_modules/cilium-responder/responder.config.example.yaml.
runbooks: # your own runbooks; \`responder new runbook <id>\` adds each one here
  - ./runbooks/${EXAMPLE_RUNBOOK}/index.ts
clusters:
  - name: prod-eu # what --cluster, routes and Slack call it
    eks: { name: prod-eu, region: eu-west-1 } # your EKS cluster; cdk/app.ts deploys to its region
routes:
  - match: { alertname: CiliumAgentNotReady }
    runbook: ${EXAMPLE_RUNBOOK}
    mode: dry-run
`,
  'cdk/app.ts': `import { App, Stack } from 'aws-cdk-lib';
import { CiliumResponder, loadConfigWithRunbooks } from 'cilium-responder';

// The responder, its worker carrying the runbooks responder.config.yaml names (\`npx cdk synth\`).
const configPath = 'responder.config.yaml';
const { config, runbooks } = await loadConfigWithRunbooks(configPath);
const app = new App();
// The clusters' region: an EKS access entry is created in its cluster's region.
const stack = new Stack(app, 'TeamResponder', { env: { region: 'eu-west-1' } });
new CiliumResponder(stack, 'Responder', { config, configPath, runbooks });
app.synth();
`,
};

type PackageJson = {
  name?: string;
  type?: string;
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
};

/** package.json as a team's project needs it: an ES module, its scripts and tools; what it has stays. */
function merged(existing: PackageJson, dir: string): PackageJson {
  const has = (name: string) => existing.dependencies?.[name] ?? existing.devDependencies?.[name];
  const scripts = { ...existing.scripts };
  if (!scripts.test || scripts.test === NPM_INIT_TEST) scripts.test = 'tsc --noEmit && vitest run';
  scripts.synth ??= 'cdk synth --quiet';
  return {
    name: basename(resolve(dir)),
    private: true,
    ...existing,
    // cdk/app.ts awaits at its top level and the runbooks import \`cilium-responder/sdk\`: ES modules only.
    type: 'module',
    scripts,
    devDependencies: {
      ...existing.devDependencies,
      ...Object.fromEntries(
        TOOLS.filter((tool) => !has(tool)).map((tool) => [tool, versions[tool] as string]),
      ),
    },
  } as PackageJson;
}

/**
 * `responder init`: the project a team needs, in `dir`: package.json (merged into one `npm init`
 * wrote), cdk.json, tsconfig.json, responder.config.yaml, cdk/app.ts, and an example runbook
 * with its test. A file that exists is never overwritten (package.json is merged); returns what
 * it wrote and what it left.
 */
export async function initProject(dir: string): Promise<{ written: string[]; kept: string[] }> {
  const written: string[] = [];
  const kept: string[] = [];
  const packagePath = join(dir, 'package.json');
  const existing = existsSync(packagePath)
    ? (JSON.parse(await readFile(packagePath, 'utf8')) as PackageJson)
    : {};
  await writeFile(packagePath, `${JSON.stringify(merged(existing, dir), null, 2)}\n`);
  written.push('package.json');
  for (const [path, text] of Object.entries(FILES)) {
    if (existsSync(join(dir, path))) {
      kept.push(path);
      continue;
    }
    await scaffoldFile(dir, path, text);
    written.push(path);
  }
  if (existsSync(join(dir, 'runbooks', EXAMPLE_RUNBOOK))) kept.push(`runbooks/${EXAMPLE_RUNBOOK}`);
  else written.push(...(await scaffoldRunbook(EXAMPLE_RUNBOOK, dir)));
  return { written, kept };
}

async function scaffoldFile(dir: string, path: string, text: string): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text, { flag: 'wx' });
}
