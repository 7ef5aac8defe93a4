import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * The table operations each function performs, from the DynamoDB store (src/store/dynamodb): items
 * are read with GetItem, written with PutItem (conditional puts for dedupe, leases and the brake),
 * removed with DeleteItem (a released claim or lease, a brake reset), and runs are listed with
 * Query on the two run indexes. Nothing scans, batches, updates in place or reads the stream.
 */
export const TABLE_OPERATIONS = {
  // Admission (dedupe claims and releases, queued run records), approvals (a run read and
  // written back), chat thread roots, the audit trail and the brake (Query, DeleteItem on reset).
  Http: ['GetItem', 'PutItem', 'DeleteItem', 'Query'],
  // Admission only: dedupe claims and releases, run records, the thread a resolved alert is said in.
  Alarm: ['GetItem', 'PutItem', 'DeleteItem'],
  Sweep: ['GetItem', 'PutItem', 'DeleteItem'],
  // Runs (records, leases, the brake, threads) and the sweep summary, which lists recent runs.
  Worker: ['GetItem', 'PutItem', 'DeleteItem', 'Query'],
} as const satisfies Record<string, readonly string[]>;

export type FunctionName = keyof typeof TABLE_OPERATIONS;

/** Item operations on the table itself; Query only on its indexes (runs are listed through them). */
export function grantTableOperations(table: ITable, fn: IFunction, name: FunctionName): void {
  const operations: readonly string[] = TABLE_OPERATIONS[name];
  const items = operations.filter((operation) => operation !== 'Query');
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: items.map((operation) => `dynamodb:${operation}`),
      resources: [table.tableArn],
    }),
  );
  if (operations.includes('Query'))
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/*`] }),
    );
}
