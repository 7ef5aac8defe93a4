import { handle } from 'hono/aws-lambda';
import { productionDeps } from './deps.ts';
import { createHttpApp } from './http-app.ts';

const deps = await productionDeps();

/** Function URL / HTTP API → the hono app: validate, admit, enqueue, answer. */
export const handler = handle(createHttpApp({ dispatch: deps.dispatch, secrets: deps.secrets }));
