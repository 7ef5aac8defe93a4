import type { LabelMatcher } from '../../../src/cluster/label-selector.ts';
import type { KubeObject } from '../../objects.ts';
import { apiVersionOf, type ResourceType } from '../../resources.ts';
import { errors } from '../../status.ts';
import type { ListedObject } from '../../store.ts';
import type { HandlerContext } from '../context.ts';
import { decodeContinue, encodeContinue } from '../continue-token.ts';
import { sendJson, sendList } from '../respond.ts';
import { type Fields, parseFieldTerms, parseLabelSelector, selectableFields } from '../selectors.ts';
import {
  parseIncludeObject,
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
  toTable,
} from '../tables/convert.ts';
import { negotiate } from '../tables/negotiate.ts';

interface Selectors {
  matchLabels?: LabelMatcher;
  matchFields?: (fields: Fields) => boolean;
}

function selectorsOf(type: ResourceType, query: URLSearchParams): Selectors | undefined {
  const labelText = query.get('labelSelector');
  const fieldText = query.get('fieldSelector');
  if (!labelText && !fieldText) return undefined;
  return {
    ...(labelText ? { matchLabels: parseLabelSelector(labelText) } : {}),
    ...(fieldText ? { matchFields: parseFieldTerms(type.plural, fieldText) } : {}),
  };
}

/** The label and field selectors of a list or watch, as one predicate. */
export function selectorFilter(
  type: ResourceType,
  query: URLSearchParams,
): ((object: KubeObject) => boolean) | undefined {
  const selectors = selectorsOf(type, query);
  if (!selectors) return undefined;
  const { matchLabels, matchFields } = selectors;
  return (object) =>
    (!matchLabels || matchLabels(object.metadata.labels)) &&
    (!matchFields || matchFields(selectableFields(type, object)));
}

const labelsOf = (object: KubeObject) => object.metadata.labels;

/** One projection per resource, so a compact row's template keeps its fields once (see sim/compact.ts). */
const fieldProjections = new Map<ResourceType, (object: KubeObject) => Fields>();

function fieldsOf(type: ResourceType): (object: KubeObject) => Fields {
  let project = fieldProjections.get(type);
  if (!project) {
    project = (object) => selectableFields(type, object);
    fieldProjections.set(type, project);
  }
  return project;
}

/** The same selectors on what a list reads: a compact row's labels and fields without building it. */
function selectorMatch(
  type: ResourceType,
  query: URLSearchParams,
): ((read: ListedObject) => boolean) | undefined {
  const selectors = selectorsOf(type, query);
  if (!selectors) return undefined;
  const { matchLabels, matchFields } = selectors;
  return (read) =>
    (!matchLabels || matchLabels(read.derived(labelsOf))) &&
    (!matchFields || matchFields(read.derived(fieldsOf(type))));
}

/** Built-in list items carry no kind/apiVersion on the wire; custom resources keep theirs. */
function withoutTypeMeta(object: KubeObject): unknown {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
  return rest;
}

const asStored = (object: KubeObject): unknown => object;

function listItem(type: ResourceType): (object: KubeObject) => unknown {
  return type.group.endsWith('cilium.io') ? asStored : withoutTypeMeta;
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
  const match = selectorMatch(type, query);
  const page = store.listReads(type, {
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
    ...(match ? { match } : {}),
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
    const { items: _none, ...head } = toPartialObjectMetadataList([], listMeta);
    return sendList(ctx.res, head, page.items, toPartialObjectMetadata);
  }
  if (format === 'table') {
    return sendJson(
      ctx.res,
      200,
      toTable(
        type.plural,
        page.items.map((read) => read.object()),
        {
          includeObject: parseIncludeObject(query.get('includeObject')),
          now: new Date(),
          resourceVersion: listMeta.resourceVersion,
          ...(listMeta.continue ? { continue: listMeta.continue } : {}),
        },
      ),
    );
  }
  await sendList(
    ctx.res,
    { kind: type.listKind, apiVersion: apiVersionOf(type), metadata: listMeta },
    page.items,
    listItem(type),
  );
}
