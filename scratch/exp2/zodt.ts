const marks: [string, number][] = [['entry', performance.now()]];
const mark = (n: string) => marks.push([n, performance.now()]);
const z = await import('zod'); mark('zod import');
const s = z.object({ a: z.string(), b: z.array(z.object({ c: z.number() })) }); mark('schema');
s.parse({ a: 'x', b: [{ c: 1 }] }); mark('parse1');
s.parse({ a: 'y', b: [{ c: 2 }] }); mark('parse2');
const { parseAlertmanager } = await import('../../src/triggers/index.ts'); mark('triggers import');
let prev = 0; const out: Record<string, number> = {};
for (const [n, t] of marks) { out[n] = Math.round((t - prev) * 10) / 10; prev = t; }
console.log(JSON.stringify(out));
