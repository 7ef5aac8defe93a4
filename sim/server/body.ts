import type { IncomingMessage } from 'node:http';
import { errors } from '../status.ts';

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request entity too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body the way kube-apiserver's decoder reports bad ones. */
export function parseObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw errors.badRequest(`the object provided is unrecognized: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.badRequest('the object provided is unrecognized: expected a JSON object');
  }
  return parsed as Record<string, unknown>;
}
