#!/usr/bin/env node
// The built CLI (dist/, made by `npm run build`, which `npm ci` runs through `prepare`).
// The AWS SDK warns on every call under Node 20, which this CLI supports; the warning is not the user's to act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Source maps are not loaded: reading them costs every run about 30 MiB and 100 ms, and errors
// reach the user as messages, not stacks (`node --enable-source-maps bin/responder.js` maps them).
// A reader that stopped reading (`responder run ... | head`) is not an error: end quietly, as cat does.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const { main } = await import('../dist/responder.js');
process.exitCode = await main(process.argv);
