import type { KubeObject } from '../../objects.ts';
import type { StoreEvent, WatchEventType } from '../../store.ts';
import type { HandlerContext } from '../context.ts';
import { selectorFilter } from './read.ts';

const DEFAULT_TIMEOUT_SECONDS = 1800;

/**
 * A watch stream: newline-delimited `{"type","object"}` events, starting with the current state
 * (as ADDED) when no resourceVersion is given, or with the changes after the given one.
 */
export async function handleWatch(ctx: HandlerContext): Promise<void> {
  const { type, namespace, name, query } = ctx.request;
  const store = ctx.cluster.store;
  const selected = selectorFilter(type, query);
  const matches = (object: KubeObject): boolean =>
    (!namespace || object.metadata.namespace === namespace) &&
    (!name || object.metadata.name === name) &&
    (!selected || selected(object));

  const since = Number(query.get('resourceVersion') || '0');
  const res = ctx.res;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  const send = (eventType: WatchEventType | 'ERROR', object: unknown) =>
    res.write(`${JSON.stringify({ type: eventType, object })}\n`);

  if (since > 0 && since < store.compactedRevision) {
    send('ERROR', {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${since} (${store.compactedRevision})`,
      reason: 'Expired',
      code: 410,
    });
    res.end();
    return;
  }

  if (since > 0) {
    for (const event of store.changesSince(type, since))
      if (matches(event.object)) send(event.type, event.object);
  } else {
    for (const object of store.list(type, { ...(namespace ? { namespace } : {}), filter: matches }).items)
      send('ADDED', object);
  }

  const listener = (event: StoreEvent) => {
    if (event.resource !== type || event.revision <= since || !matches(event.object)) return;
    send(event.type, event.object);
  };
  store.on('event', listener);
  const timeoutSeconds = Number(query.get('timeoutSeconds') || DEFAULT_TIMEOUT_SECONDS);
  const timer = setTimeout(() => res.end(), timeoutSeconds * 1000);
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      store.off('event', listener);
      resolve();
    };
    res.once('close', done);
    res.once('finish', done);
  });
}
