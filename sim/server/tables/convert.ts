/** The representations themselves: Table, PartialObjectMetadata and PartialObjectMetadataList from stored objects. */

import { goQuote } from '../../../src/cluster/label-selector.ts';
import type { KubeObject } from '../../objects.ts';
import { errors } from '../../status.ts';
import { printerFor } from './crd.ts';
import type {
  IncludeObject,
  ListMeta,
  PartialObjectMetadata,
  PartialObjectMetadataList,
  Table,
  TableOptions,
} from './types.ts';

/** meta.AsPartialObjectMetadata: the whole ObjectMeta under meta.k8s.io/v1's kind. */
export function toPartialObjectMetadata(object: KubeObject): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

export function listMeta({ resourceVersion, continue: token, remainingItemCount }: ListMeta): ListMeta {
  return {
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(token ? { continue: token } : {}),
    ...(remainingItemCount !== undefined ? { remainingItemCount } : {}),
  };
}

export function toPartialObjectMetadataList(
  objects: readonly KubeObject[],
  meta: ListMeta,
): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta(meta),
    items: objects.map(toPartialObjectMetadata),
  };
}

export function rowObject(object: KubeObject, includeObject: IncludeObject): unknown {
  if (includeObject === 'None') return null;
  return includeObject === 'Object' ? object : toPartialObjectMetadata(object);
}

/** The Table for a list (or, with one object, a get) of the resource, Wide columns included. */
export function toTable(
  resourcePlural: string,
  objects: readonly KubeObject[],
  options: TableOptions,
): Table {
  const printer = printerFor(resourcePlural);
  const includeObject = options.includeObject ?? 'Metadata';
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta(options),
    columnDefinitions: printer.columns,
    rows: objects.map((object) => {
      const { cells, conditions } = printer.print(object, options.now);
      return { cells, ...(conditions ? { conditions } : {}), object: rowObject(object, includeObject) };
    }),
  };
}

/** The `includeObject` query parameter as the Table transform validates it. */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (!value) return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw errors.badRequest(
    `Unable to convert to Table as requested: includeObject: Unsupported value: ${goQuote(value)}: supported values: "Metadata", "None", "Object"`,
  );
}
