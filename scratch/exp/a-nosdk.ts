// hono app + config, no SDK
import { handle } from 'hono/aws-lambda';
import { Hono } from 'hono';
export const handler = handle(new Hono().get('/', (c) => c.json({})));
