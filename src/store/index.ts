export { TTL_ATTRIBUTE, tableDefinition } from './dynamodb/layout.ts';
export { type DynamoStoreOptions, dynamoStore } from './dynamodb.ts';
export { memoryStore } from './memory.ts';
export type * from './types.ts';
