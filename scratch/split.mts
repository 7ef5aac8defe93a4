import { build } from 'esbuild';
import { copyFileSync } from 'node:fs';
const entry = process.argv[2] ?? 'functions/http.ts';
const outdir = process.argv[3] ?? '/tmp/cs/split';
const r = await build({ entryPoints: { index: entry }, bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node22', minify: true, outdir, outExtension: { '.js': '.mjs' }, metafile: true, sourcemap: true, mainFields: ['module', 'main'], banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" }, logLevel: 'error' });
copyFileSync('/tmp/cs/http/responder.config.json', `${outdir}/responder.config.json`);
const outputs = r.metafile!.outputs;
const start = Object.keys(outputs).find((p) => outputs[p]!.entryPoint === entry)!;
const loaded = new Set([start]);
for (const p of loaded) for (const i of outputs[p]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) loaded.add(i.path);
let bytes = 0; for (const p of loaded) bytes += outputs[p]!.bytes;
console.log('start graph', [...loaded].length, 'files', (bytes / 1024).toFixed(0), 'KiB; all', Object.keys(outputs).filter((p) => !p.endsWith('.map')).length);
const walked = new Set([start]);
for (const p of walked) for (const i of outputs[p]!.imports) { if (i.kind !== 'dynamic-import' && outputs[i.path]) walked.add(i.path); }
const by = new Map<string, number>();
for (const p of walked) for (const [inp, v] of Object.entries(outputs[p]!.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(inp);
  const k = m ? m[1]! : inp.split('/').slice(0, 2).join('/');
  by.set(k, (by.get(k) ?? 0) + v.bytesInOutput);
}
console.log('walked', walked.size, [...walked].map((p) => outputs[p]!.imports.map((i) => i.kind)).flat().filter((k, i, a) => a.indexOf(k) === i));
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1024).toFixed(1).padStart(7), k);
if (process.env.SHOW) for (const p of walked) for (const [inp, v] of Object.entries(outputs[p]!.inputs)) if (inp.includes(process.env.SHOW)) console.log(v.bytesInOutput, inp);
