import type { ServerResponse } from 'node:http';
import { ByteSink } from '../byte-sink.ts';
import type { Projection } from '../compact.ts';
import type { ApiError } from '../status.ts';
import type { ListedObject } from '../store.ts';

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error.code === 429 && error.details?.retryAfterSeconds) {
    res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
  }
  sendJson(res, error.code, error.toStatus());
}

const COMMA = Buffer.from(',');

/**
 * Writes `{...head, items: [...]}`, each item as `project` makes it from what the list read, in
 * chunks as they fill, so a large page never becomes one huge string in memory.
 */
export async function sendList(
  res: ServerResponse,
  head: Record<string, unknown>,
  items: readonly ListedObject[],
  project: Projection,
): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  let full = false;
  const sink = new ByteSink((bytes) => {
    if (!res.write(bytes)) full = true;
  });
  const opening = JSON.stringify(head);
  sink.text(`${opening.slice(0, -1)}${opening.length > 2 ? ',' : ''}"items":[`);
  for (let i = 0; i < items.length; i++) {
    if (i) sink.bytes(COMMA);
    (items[i] as ListedObject).writeJson(project, sink);
    if (full) {
      await new Promise((resolve) => res.once('drain', resolve));
      full = false;
    }
  }
  sink.text(']}');
  sink.drain();
  res.end();
}
