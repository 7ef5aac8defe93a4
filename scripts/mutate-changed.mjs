// Mutation-tests the safety-core files (stryker.config.mjs `mutate`) that differ from a base
// revision: CI's share of `npm run mutate`, which over the whole core takes too long for every change.
// Base: $MUTATE_BASE, else origin/main, else main. Files changed since it (committed or not) count.
import { execFileSync, spawnSync } from 'node:child_process';
import config from '../stryker.config.mjs';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();

function baseRevision() {
  for (const candidate of [process.env.MUTATE_BASE, 'origin/main', 'main']) {
    if (!candidate) continue;
    try {
      return git('merge-base', 'HEAD', candidate);
    } catch {
      // Not in this clone: try the next one.
    }
  }
  return undefined;
}

const base = baseRevision();
if (!base) {
  console.log('mutate: no base revision (set MUTATE_BASE); skipped. The whole core: npm run mutate');
  process.exit(0);
}
const changed = new Set(git('diff', '--name-only', base, '--').split('\n').filter(Boolean));
const files = config.mutate.filter((file) => changed.has(file));
if (files.length === 0) {
  console.log(`mutate: no safety-core file changed since ${base.slice(0, 12)}; nothing to mutate.`);
  process.exit(0);
}
console.log(
  `mutate: ${files.length} safety-core file(s) changed since ${base.slice(0, 12)}: ${files.join(', ')}`,
);
const run = spawnSync('npx', ['stryker', 'run', '--mutate', files.join(',')], { stdio: 'inherit' });
process.exit(run.status ?? 1);
