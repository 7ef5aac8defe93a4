// @ts-check
/**
 * Mutation testing of the safety core: the code that decides whether the responder may write to a
 * cluster, and how often. `npm run mutate` fails below `thresholds.break`; survivors are listed in
 * the clear-text report and in reports/mutation/ (html, json).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.stryker.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/slack/signature.ts',
    'src/triggers/delivery-key.ts',
    'src/store/brake-window.ts',
    'src/store/memory/brake.ts',
    'src/store/dynamodb/brake.ts',
    'src/store/memory/leases.ts',
    'src/store/dynamodb/leases.ts',
    'src/store/memory/checkpoints.ts',
    'src/store/dynamodb/checkpoints.ts',
    'src/store/expiry.ts',
    'src/store/memory/pairs.ts',
    'src/store/dynamodb/pairs.ts',
    'src/routing/follow-up.ts',
    'src/engine/exclusions.ts',
    'src/engine/actuator.ts',
    'src/routing/approval.ts',
    'src/routing/authority.ts',
    'src/engine/verdict.ts',
    'src/cluster/eks-token.ts',
  ],
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { logTests: false, allowEmojis: false },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['dist', 'cdk.out', 'reports', 'bench', 'deploy', 'docs'],
  concurrency: 2,
  timeoutMS: 20_000,
};
