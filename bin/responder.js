#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx registers a loader, so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv);
