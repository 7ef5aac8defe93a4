const t = performance.now();
await import('zod');
console.log(JSON.stringify({ entry: t, zod: performance.now() - t }));
