/**
 * What the package runs from: the `responder` command (dist/responder.js, scripts/build-cli.mjs),
 * the library's entries (dist/lib, scripts/build-lib.mjs) and the functions the construct bundles
 * from the installed sources at a team's `cdk synth` (cdk/cilium-responder.ts).
 */
export const CLI_ENTRIES = { responder: 'cli/main.ts' };
export const LIB_ENTRIES = { index: 'cdk/index.ts', sdk: 'sdk/index.ts', testing: 'sdk/testing.ts' };
export const FUNCTION_ENTRIES = [
  'functions/http.ts',
  'functions/alarm.ts',
  'functions/sweep.ts',
  'functions/worker.ts',
];
