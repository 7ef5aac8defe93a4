import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant of the safety core (stryker.config.mjs): the
 * fast ones that exercise those files. No global setup: none of them needs the built CLI.
 */
export const SAFETY_CORE_TESTS = [
  'test/src/slack/signature.test.ts',
  'test/src/triggers/delivery-key.test.ts',
  'test/src/store/memory.test.ts',
  'test/src/store/dynamodb.test.ts',
  'test/src/store/dynamodb-brake.test.ts',
  'test/src/worker/store-brake.test.ts',
  'test/src/engine/exclusions.test.ts',
  'test/src/engine/actuator.test.ts',
  'test/src/engine/actuator-races.test.ts',
  'test/src/engine/actuator-agents.test.ts',
  'test/src/engine/actuator-unconfirmed.test.ts',
  'test/src/engine/late-stop.test.ts',
  'test/src/engine/journal.test.ts',
  'test/src/engine/verdict.test.ts',
  'test/src/routing/approval.test.ts',
  'test/src/routing/authority.test.ts',
  'test/src/routing/admit.test.ts',
  'test/src/routing/dispatch.test.ts',
  'test/src/routing/follow-up.test.ts',
  'test/src/routing/route.test.ts',
  'test/src/worker/left-behind.test.ts',
  'test/src/app/approver-groups.test.ts',
  'test/src/cluster/eks-token.test.ts',
  'test/runbooks/unmanaged-pods/hold.test.ts',
];

export default defineConfig({
  test: {
    include: SAFETY_CORE_TESTS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
