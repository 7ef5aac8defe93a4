import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
const [profFile, mode] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(profFile!, 'utf8'));
const maps = new Map<string, TraceMap | undefined>();
const mapOf = (url: string) => {
  if (!maps.has(url)) { const f = url.startsWith('file:') ? `${fileURLToPath(url)}.map` : ''; maps.set(url, f && existsSync(f) ? new TraceMap(readFileSync(f, 'utf8')) : undefined); }
  return maps.get(url);
};
const self = new Map<number, number>();
const dt = prof.timeDeltas as number[];
(prof.samples as number[]).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
const byKey = new Map<string, number>(); let total = 0;
for (const node of prof.nodes) {
  const t = (self.get(node.id) ?? 0) / 1000; total += t;
  const cf = node.callFrame;
  const map = mapOf(cf.url);
  let key: string;
  if (map) {
    const pos = originalPositionFor(map, { line: cf.lineNumber + 1, column: cf.columnNumber });
    const src = (pos.source ?? '?').replace(/^.*node_modules\//, '');
    key = mode === 'pkg' ? (/^((?:@[^/]+\/)?[^/]+)/.exec(src)?.[1] ?? src) : `${src}:${pos.line} ${pos.name ?? cf.functionName}`;
  } else key = mode === 'pkg' ? (cf.url.startsWith('node:') ? 'node internals' : cf.url ? cf.url.replace(/^.*\//, '') : `(${cf.functionName})`) : `${cf.url}:${cf.lineNumber} ${cf.functionName}`;
  byKey.set(key, (byKey.get(key) ?? 0) + t);
}
console.log('total', total.toFixed(1));
for (const [k, v] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 30))) console.log(v.toFixed(1).padStart(7), k);
