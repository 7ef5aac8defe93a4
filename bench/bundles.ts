import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleLikeTheDeploy } from './bundle-like-deploy.ts';
import type { Figures } from './figures.ts';

const FUNCTIONS = ['http', 'alarm', 'sweep', 'worker'] as const;
const ROUNDS = 9;

/** A function bundled as cdk/bundling.ts has NodejsFunction bundle it (ESM, node22, minified, SDK included). */
async function bundle(name: string, dir: string, options: { sourcemap?: boolean } = {}): Promise<string> {
  const outfile = join(dir, name, 'index.mjs');
  await bundleLikeTheDeploy(`functions/${name}.ts`, outfile, options);
  return outfile;
}

/** Seconds to load a script and its whole module graph (it stops at its first environment check). */
function loadSeconds(args: string[], nodeOptions: string[] = []): { seconds: number; rssMiB: number } {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      ...nodeOptions,
      '-e',
      `import(${JSON.stringify(args[0] ?? '')}).catch(() => {}).finally(() => process.stdout.write(String(process.resourceUsage().maxRSS)))`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH } },
  );
  return { seconds: (performance.now() - started) / 1000, rssMiB: Number(run.stdout) / 1024 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Each function's bundle: its minified size, and its cold import (the whole module graph loaded,
 * up to the first environment check) beside a bare `node -e 0`, alternated in one run.
 */
export async function bundlesBench(): Promise<Figures> {
  mkdirSync(join(process.cwd(), 'cdk.out'), { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), 'cdk.out', 'bench-bundles-'));
  const figures: Figures = {};
  const bundles = await Promise.all(FUNCTIONS.map((name) => bundle(name, dir)));
  const bare: number[] = [];
  const loads = FUNCTIONS.map(() => [] as number[]);
  const rss = FUNCTIONS.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push((performance.now() - start) / 1000);
    bundles.forEach((file, index) => {
      const load = loadSeconds([file]);
      loads[index]?.push(load.seconds);
      rss[index] = Math.max(rss[index] ?? 0, load.rssMiB);
    });
  }
  FUNCTIONS.forEach((name, index) => {
    const file = bundles[index] as string;
    figures[`${name}: minified size (KiB)`] = Math.round(statSync(file).size / 1024);
    const ratio = Number((median(loads[index] ?? []) / median(bare)).toFixed(2));
    figures[`${name}: cold import / node -e 0`] = name === 'http' ? { value: ratio, atMost: 3 } : ratio;
    figures[`${name}: RSS after cold import (MiB)`] = Math.round(rss[index] ?? 0);
  });
  figures['node -e 0 (median s)'] = Number(median(bare).toFixed(3));
  Object.assign(figures, await sourceMapsBench(dir));
  return figures;
}

/**
 * The cost of NODE_OPTIONS=--enable-source-maps (the stack sets it, so traces in CloudWatch name
 * the TypeScript): the bundles with their maps, as the deploy ships them, loaded with and without.
 */
async function sourceMapsBench(dir: string): Promise<Figures> {
  const mapped = await Promise.all(
    (['http', 'worker'] as const).map((name) => bundle(name, join(dir, 'mapped'), { sourcemap: true })),
  );
  const figures: Figures = {};
  for (const [index, name] of (['http', 'worker'] as const).entries()) {
    const file = mapped[index] as string;
    const plain: number[] = [];
    const withMaps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(loadSeconds([file]).seconds);
      withMaps.push(loadSeconds([file], ['--enable-source-maps']).seconds);
    }
    figures[`${name}: source map (KiB)`] = Math.round(statSync(`${file}.map`).size / 1024);
    figures[`${name}: cold import with --enable-source-maps (median s)`] = Number(
      median(withMaps).toFixed(3),
    );
    figures[`${name}: cold import without (median s)`] = Number(median(plain).toFixed(3));
  }
  return figures;
}
