import { copyFileSync } from 'node:fs';
import { bundleLikeTheDeploy } from '../bench/bundle-like-deploy.ts';
const b = await bundleLikeTheDeploy(process.argv[2] ?? 'functions/http.ts', process.argv[3] ?? '/tmp/cs/b4', { sourcemap: true });
copyFileSync('/tmp/cs/http/responder.config.json', `${process.argv[3] ?? '/tmp/cs/b4'}/responder.config.json`);
console.log(b);
