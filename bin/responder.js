#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx registers a loader, so there is no build step to forget.
import { register } from 'tsx/esm/api';

// The AWS SDK warns on every call under Node 20, which this CLI supports; the warning is not the user's to act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv);
