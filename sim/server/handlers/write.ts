import { randomInt } from 'node:crypto';
import { R } from '../../cluster.ts';
import type { KubeObject, ObjectMeta } from '../../objects.ts';
import { apiVersionOf, type ResourceType } from '../../resources.ts';
import { errors, successStatus } from '../../status.ts';
import type { HandlerContext } from '../context.ts';
import { applyPatch } from '../patch.ts';
import { sendJson } from '../respond.ts';

/** Resources whose DELETE answers with the deleted object (kube's ReturnDeletedObject); others get a Status. */
function returnsDeletedObject(type: ResourceType): boolean {
  return type.plural === 'pods' || type.group === 'cilium.io';
}

export function isDryRun(query: URLSearchParams): boolean {
  const value = query.get('dryRun');
  if (value === null) return false;
  if (value !== 'All') throw errors.badRequest(`Invalid dry run value: ${value}; supported values are "All"`);
  return true;
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The 5-character suffix the API server appends to generateName. */
export function generateSuffix(): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)];
  return suffix;
}

/** Checks the body's identity against the URL, as kube-apiserver's decoder and REST handlers do. */
function objectFromBody(ctx: HandlerContext, body: Record<string, unknown>): KubeObject {
  const { type, namespace } = ctx.request;
  const expected = apiVersionOf(type);
  if (body.apiVersion !== undefined && body.apiVersion !== expected) {
    throw errors.badRequest(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expected})`,
    );
  }
  if (body.kind !== undefined && body.kind !== type.kind) {
    throw errors.badRequest(
      `the kind in the data (${String(body.kind)}) does not match the expected kind (${type.kind})`,
    );
  }
  const metadata = (body.metadata ?? {}) as ObjectMeta;
  if (type.namespaced && metadata.namespace && metadata.namespace !== namespace) {
    throw errors.badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  return {
    ...body,
    apiVersion: expected,
    kind: type.kind,
    metadata: { ...metadata, ...(type.namespaced ? { namespace } : {}) },
  } as KubeObject;
}

export async function handleCreate(ctx: HandlerContext): Promise<void> {
  const { type, namespace, query } = ctx.request;
  const object = objectFromBody(ctx, await ctx.body());
  if (!object.metadata.name && object.metadata.generateName) {
    object.metadata.name = `${object.metadata.generateName}${generateSuffix()}`;
  }
  if (!object.metadata.name) {
    throw errors.invalid(type, '', 'metadata.name', 'Required value: name or generateName is required');
  }
  if (type.namespaced && namespace && !ctx.cluster.store.get(R.namespaces, undefined, namespace)) {
    throw errors.namespaceNotFound(namespace);
  }
  if (isDryRun(query)) {
    if (ctx.cluster.store.get(type, namespace, object.metadata.name))
      throw errors.alreadyExists(type, object.metadata.name);
    return sendJson(ctx.res, 201, object);
  }
  sendJson(ctx.res, 201, ctx.cluster.store.create(type, object));
}

export async function handleUpdate(ctx: HandlerContext): Promise<void> {
  const { type, namespace, name, query } = ctx.request;
  const object = objectFromBody(ctx, await ctx.body());
  if (object.metadata.name !== name) {
    throw errors.badRequest(
      `the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`,
    );
  }
  const current = ctx.cluster.store.mustGet(type, namespace, name as string);
  if (isDryRun(query))
    return sendJson(ctx.res, 200, { ...object, metadata: { ...object.metadata, uid: current.metadata.uid } });
  const updated = ctx.cluster.store.update(
    type,
    namespace,
    name as string,
    () => object,
    object.metadata.resourceVersion,
  );
  sendJson(ctx.res, 200, updated);
}

export async function handlePatch(ctx: HandlerContext): Promise<void> {
  const { type, namespace, name, query } = ctx.request;
  const { contentType, text } = await ctx.rawBody();
  const current = ctx.cluster.store.mustGet(type, namespace, name as string);
  const patched = applyPatch(contentType, current, text) as KubeObject;
  if (!patched || typeof patched !== 'object' || !patched.metadata) {
    throw errors.unprocessable('the patched object is not a Kubernetes object');
  }
  if (isDryRun(query)) return sendJson(ctx.res, 200, patched);
  const expected = (JSON.parse(text) as { metadata?: { resourceVersion?: string } })?.metadata
    ?.resourceVersion;
  sendJson(
    ctx.res,
    200,
    ctx.cluster.store.update(type, namespace, name as string, () => patched, expected),
  );
}

interface DeleteOptionsBody {
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

/** DeleteOptions from the body, where clients put them (client-node, kubectl). */
export async function readDeleteOptions(ctx: HandlerContext): Promise<DeleteOptionsBody> {
  const { text } = await ctx.rawBody();
  if (!text.trim()) return {};
  return (await ctx.body()) as DeleteOptionsBody;
}

export async function handleDelete(ctx: HandlerContext): Promise<void> {
  const { type, namespace, name, query } = ctx.request;
  const options = await readDeleteOptions(ctx);
  const dryRun = isDryRun(query) || options.dryRun?.includes('All') === true;
  const preconditions = {
    ...(options.preconditions?.uid ? { uid: options.preconditions.uid } : {}),
    ...(options.preconditions?.resourceVersion
      ? { resourceVersion: options.preconditions.resourceVersion }
      : {}),
  };
  const store = ctx.cluster.store;
  const deleted = dryRun
    ? store.checkDelete(type, namespace, name as string, preconditions)
    : store.delete(type, namespace, name as string, preconditions);
  if (returnsDeletedObject(type)) return sendJson(ctx.res, 200, deleted);
  sendJson(ctx.res, 200, {
    ...successStatus(200),
    details: {
      name,
      ...(type.group ? { group: type.group } : {}),
      kind: type.plural,
      uid: deleted.metadata.uid,
    },
  });
}
