import type { KubeObject } from '../../objects.ts';
import { apiVersionOf, type ResourceType } from '../../resources.ts';
import { errors } from '../../status.ts';
import type { HandlerContext } from '../context.ts';
import { decodeContinue, encodeContinue } from '../continue-token.ts';
import { sendJson, sendList } from '../respond.ts';
import { parseFieldSelector, parseLabelSelector } from '../selectors.ts';
import {
  parseIncludeObject,
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
  toTable,
} from '../tables/convert.ts';
import { negotiate } from '../tables/negotiate.ts';

/** The label and field selectors of a list or watch, as one predicate. */
export function selectorFilter(
  type: ResourceType,
  query: URLSearchParams,
): ((object: KubeObject) => boolean) | undefined {
  const labelText = query.get('labelSelector');
  const fieldText = query.get('fieldSelector');
  const matchLabels = labelText ? parseLabelSelector(labelText) : undefined;
  const matchFields = fieldText ? parseFieldSelector(type.plural, fieldText) : undefined;
  if (!matchLabels && !matchFields) return undefined;
  return (object) =>
    (!matchLabels || matchLabels(object.metadata.labels)) && (!matchFields || matchFields(object));
}

/** Built-in list items carry no kind/apiVersion on the wire; custom resources keep theirs. */
function listItem(type: ResourceType, object: KubeObject): unknown {
  if (type.group.endsWith('cilium.io')) return object;
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
  return rest;
}

function parseLimit(query: URLSearchParams): number | undefined {
  const text = query.get('limit');
  if (text === null || text === '') return undefined;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 0) throw errors.badRequest(`invalid limit: ${text}`);
  return limit;
}

export async function handleGet(ctx: HandlerContext): Promise<void> {
  const { type, namespace, name } = ctx.request;
  const object = ctx.cluster.store.mustGet(type, namespace, name as string);
  const format = negotiate(ctx.req.headers.accept, false);
  if (format === 'partial') return sendJson(ctx.res, 200, toPartialObjectMetadata(object));
  if (format === 'table') {
    return sendJson(
      ctx.res,
      200,
      toTable(type.plural, [object], {
        includeObject: parseIncludeObject(ctx.request.query.get('includeObject')),
        now: new Date(),
        resourceVersion: object.metadata.resourceVersion ?? '',
      }),
    );
  }
  sendJson(ctx.res, 200, object);
}

export async function handleList(ctx: HandlerContext): Promise<void> {
  const { type, namespace, query } = ctx.request;
  const store = ctx.cluster.store;
  const limit = parseLimit(query);
  const continueToken = query.get('continue');
  const position = continueToken ? decodeContinue(continueToken) : undefined;
  const exactRevision =
    query.get('resourceVersionMatch') === 'Exact' ? Number(query.get('resourceVersion')) : undefined;
  if (exactRevision !== undefined && exactRevision > store.revision) {
    throw errors.timeout(`Too large resource version: ${exactRevision}, current: ${store.revision}`);
  }
  const page = store.list(type, {
    ...(namespace ? { namespace } : {}),
    ...(position
      ? {
          revision: position.revision,
          after: position.after,
          ...(position.tally ? { tally: position.tally } : {}),
        }
      : exactRevision
        ? { revision: exactRevision }
        : {}),
    ...(limit ? { limit } : {}),
    filter: selectorFilter(type, query),
  });
  const listMeta = {
    resourceVersion: String(page.revision),
    ...(page.nextKey
      ? {
          continue: encodeContinue({
            revision: page.revision,
            after: page.nextKey,
            ...(page.tally ? { tally: page.tally } : {}),
          }),
        }
      : {}),
    ...(page.remaining !== undefined ? { remainingItemCount: page.remaining } : {}),
  };
  const format = negotiate(ctx.req.headers.accept, true);
  if (format === 'partial-list') {
    const { items, ...head } = toPartialObjectMetadataList(page.items, listMeta);
    return sendList(ctx.res, head, items);
  }
  if (format === 'table') {
    return sendJson(
      ctx.res,
      200,
      toTable(type.plural, page.items, {
        includeObject: parseIncludeObject(query.get('includeObject')),
        now: new Date(),
        resourceVersion: listMeta.resourceVersion,
        ...(listMeta.continue ? { continue: listMeta.continue } : {}),
      }),
    );
  }
  await sendList(
    ctx.res,
    { kind: type.listKind, apiVersion: apiVersionOf(type), metadata: listMeta },
    page.items.map((item) => listItem(type, item)),
  );
}
