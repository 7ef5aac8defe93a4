import { handle } from 'hono/aws-lambda';
import { createHttpApp } from './http-app.ts';
import { lambdaRuntime } from './runtime.ts';

const runtime = await lambdaRuntime();

/** Function URL → the hono app: verify, parse, admit, enqueue, answer. */
export const handler = handle(createHttpApp({ app: runtime.app, secrets: runtime.secrets }));
