// Scratch: attribute a --cpu-prof of the bundle's cold start to packages via its source map.
import { readFileSync } from 'node:fs';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
const [profFile, mapFile] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(profFile!, 'utf8'));
const map = new TraceMap(readFileSync(mapFile!, 'utf8'));
const self = new Map<number, number>();
const dt = prof.timeDeltas as number[];
(prof.samples as number[]).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
const byKey = new Map<string, number>();
let total = 0;
for (const node of prof.nodes) {
  const t = (self.get(node.id) ?? 0) / 1000; total += t;
  const cf = node.callFrame;
  let key: string;
  if (cf.url.endsWith('index.mjs')) {
    const pos = originalPositionFor(map, { line: cf.lineNumber + 1, column: cf.columnNumber });
    const src = pos.source ?? '?';
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(src);
    key = m ? m[1]! : src.replace(/^.*?\/(src|functions|runbooks)\//, '$1/');
    if (cf.functionName === '' && cf.lineNumber === 0) key = `bundle:(top/parse) ${key}`;
  } else key = cf.url ? `node:${cf.url.replace(/^.*\//, '')}` : `(${cf.functionName})`;
  byKey.set(key, (byKey.get(key) ?? 0) + t);
}
console.log(`total ${total.toFixed(1)} ms`);
for (const [k, v] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(v.toFixed(1).padStart(7), k);
