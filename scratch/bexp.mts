import { bundleLikeTheDeploy } from '../bench/bundle-like-deploy.ts';
import { copyFileSync, readdirSync } from 'node:fs';
const only = process.argv[2];
for (const f of readdirSync('scratch/exp').filter((f) => f.endsWith('.ts') && (!only || f.includes(only)))) {
  await bundleLikeTheDeploy(`scratch/exp/${f}`, `/tmp/cs/${f.replace('.ts', '')}/index.mjs`, { sourcemap: true });
  copyFileSync('/tmp/cs/http/responder.config.json', `/tmp/cs/${f.replace('.ts', '')}/responder.config.json`);
}
