import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimCluster } from '../cluster.ts';
import type { Faults } from '../faults.ts';
import type { ResourceRequest } from './request.ts';

/** Everything a resource handler needs for one request. */
export interface HandlerContext {
  cluster: SimCluster;
  faults: Faults;
  req: IncomingMessage;
  res: ServerResponse;
  request: ResourceRequest;
  /** The request body parsed as JSON (objects only). */
  body(): Promise<Record<string, unknown>>;
  /** The raw body and its content type, for patches. */
  rawBody(): Promise<{ contentType: string; text: string }>;
}
