import { build } from 'esbuild';
const entry = process.argv[2] ?? 'functions/http.ts';
const r = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, write: false, metafile: true, outfile: '/tmp/cs/m.mjs', mainFields: ['module', 'main'], logLevel: 'error' });
const out = Object.values(r.metafile!.outputs)[0]!;
const by = new Map<string, number>();
for (const [p, v] of Object.entries(out.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p);
  const k = m ? m[1]! : p.split('/').slice(0, 2).join('/');
  by.set(k, (by.get(k) ?? 0) + v.bytesInOutput);
}
let t = 0; for (const v of by.values()) t += v;
console.log('total KiB', (t / 1024).toFixed(0));
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / 1024).toFixed(1).padStart(7), k);
