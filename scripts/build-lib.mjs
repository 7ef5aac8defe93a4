// Builds the library entries (`cilium-responder`, `/sdk`, `/testing`) into dist/lib: ESM bundles
// by esbuild (packages stay external), declarations by tsc (tsconfig.lib.json) rolled up per entry
// by API Extractor, which also compares each entry's surface with its report in api/.
// `--check` (CI, `npm run api:check`) fails when a report differs; without it the reports are updated.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { build } from 'esbuild';
import { LIB_ENTRIES } from './entries.mjs';
import { ESM_FOR_NODE } from './esbuild-node.mjs';

const check = process.argv.includes('--check');
const REPORTS = ['construct', 'sdk', 'testing'];

rmSync('dist/lib', { recursive: true, force: true });
rmSync('dist/types', { recursive: true, force: true });
await build({
  ...ESM_FOR_NODE,
  entryPoints: LIB_ENTRIES,
  outdir: 'dist/lib',
  packages: 'external',
});
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], {
  stdio: 'inherit',
});

const changed = [];
for (const report of REPORTS) {
  const config = ExtractorConfig.loadFileAndPrepare(`api/config/${report}.json`);
  const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false });
  if (result.apiReportChanged) changed.push(report);
  // Errors (a forgotten export among them) fail the build whether or not the report changed.
  if (result.errorCount > 0) {
    process.stderr.write(`API Extractor reported ${result.errorCount} errors for ${report} (above)\n`);
    process.exitCode = 1;
  }
}
if (changed.length > 0) {
  process.stderr.write(
    check
      ? `the public API changed (${changed.join(', ')}): run \`npm run build:lib\` and commit api/*.api.md with the change\n`
      : `API reports updated: ${changed.map((r) => `api/${r}.api.md`).join(', ')}; commit them\n`,
  );
  if (check) process.exitCode = 1;
}
rmSync('dist/types', { recursive: true, force: true });
