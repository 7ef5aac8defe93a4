/** The wire types of the alternate representations: meta.k8s.io/v1 Table and PartialObjectMetadata(List), and what a table request asks for. */

import type { ObjectMeta } from '../../objects.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRowCondition {
  type: 'Completed';
  status: 'True';
  reason: string;
  message: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  object: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ObjectMeta;
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

export interface TableOptions {
  /** What each row's `object` carries; Metadata when the request names none. */
  includeObject?: IncludeObject;
  /** The instant ages are measured from. */
  now: Date;
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}
