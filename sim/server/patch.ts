import { errors } from '../status.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): Json {
  if (!isObject(patch)) return patch as Json;
  const result: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: Json;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw errors.badRequest(`invalid JSON pointer: ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(
  root: Json,
  parts: string[],
  path: string,
): { parent: Record<string, Json> | Json[]; key: string } {
  let node: Json = root;
  for (const part of parts.slice(0, -1)) {
    const next: Json | undefined = Array.isArray(node)
      ? node[Number(part)]
      : isObject(node)
        ? node[part]
        : undefined;
    if (next === undefined || next === null || typeof next !== 'object')
      throw errors.unprocessable(`doc is missing path: "${path}"`);
    node = next;
  }
  if (node === null || typeof node !== 'object') throw errors.unprocessable(`doc is missing path: "${path}"`);
  return { parent: node, key: parts[parts.length - 1] as string };
}

function read(root: Json, path: string): Json {
  const parts = pointer(path);
  if (parts.length === 0) return root;
  const { parent, key } = parentOf(root, parts, path);
  const value = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (value === undefined) throw errors.unprocessable(`doc is missing path: "${path}"`);
  return value;
}

function remove(root: Json, path: string): void {
  const { parent, key } = parentOf(root, pointer(path), path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (key in parent) delete parent[key];
  else throw errors.unprocessable(`doc is missing path: "${path}"`);
}

function add(root: Json, path: string, value: Json, replace: boolean): void {
  const { parent, key } = parentOf(root, pointer(path), path);
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (replace) parent[index] = value;
    else parent.splice(index, 0, value);
  } else {
    if (replace && !(key in parent)) throw errors.unprocessable(`doc is missing key: ${path}`);
    parent[key] = value;
  }
}

/** RFC 6902 JSON patch. */
export function jsonPatch(target: unknown, operations: unknown): Json {
  if (!Array.isArray(operations)) throw errors.badRequest('json patch must be an array of operations');
  const root = structuredClone(target) as Json;
  for (const operation of operations as JsonPatchOperation[]) {
    switch (operation.op) {
      case 'add':
        add(root, operation.path, operation.value ?? null, false);
        break;
      case 'replace':
        add(root, operation.path, operation.value ?? null, true);
        break;
      case 'remove':
        remove(root, operation.path);
        break;
      case 'move': {
        const value = read(root, operation.from ?? '');
        remove(root, operation.from ?? '');
        add(root, operation.path, value, false);
        break;
      }
      case 'copy':
        add(root, operation.path, structuredClone(read(root, operation.from ?? '')), false);
        break;
      case 'test':
        if (JSON.stringify(read(root, operation.path)) !== JSON.stringify(operation.value)) {
          throw errors.unprocessable(`testing value ${operation.path} failed`);
        }
        break;
      default:
        throw errors.badRequest(`unexpected kind of operation: ${String((operation as { op: unknown }).op)}`);
    }
  }
  return root;
}

/**
 * Applies a patch by its content type. Strategic merge patches are applied as JSON merge patches:
 * that is exact for the map fields the project patches (labels, annotations, data), while lists are
 * replaced rather than merged by key.
 */
export function applyPatch(contentType: string, target: unknown, text: string): Json {
  const type = contentType.split(';')[0]?.trim();
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (error) {
    throw errors.badRequest(`error decoding patch: ${(error as Error).message}`);
  }
  if (type === 'application/json-patch+json') return jsonPatch(target, patch);
  if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
    return mergePatch(target, patch);
  }
  throw errors.unsupportedMediaType(contentType);
}
