/** Custom resources: the apiextensions tableconvertor over a CRD's additionalPrinterColumns, and the printer a resource gets. */

import type { KubeObject } from '../../objects.ts';
import { PRINTERS } from './builtin.ts';
import { column, DOC, humanDuration, type Json, NAME, type Printer, rec, timestamp } from './cells.ts';

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

export interface PrinterColumn {
  name: string;
  type: ColumnType;
  jsonPath: string;
  description: string;
  priority?: number;
}

/** As Cilium's CRDs declare them (pkg/k8s/apis/cilium.io/v2/types.go printcolumn markers). */
export const CRD_PRINTER_COLUMNS: Record<string, PrinterColumn[]> = {
  ciliumendpoints: [
    {
      name: 'Security Identity',
      type: 'integer',
      jsonPath: '.status.identity.id',
      description: 'Security Identity',
    },
    {
      name: 'Ingress Enforcement',
      type: 'string',
      jsonPath: '.status.policy.ingress.state',
      description: 'Ingress enforcement in the endpoint',
      priority: 1,
    },
    {
      name: 'Egress Enforcement',
      type: 'string',
      jsonPath: '.status.policy.egress.state',
      description: 'Egress enforcement in the endpoint',
      priority: 1,
    },
    {
      name: 'Visibility Policy',
      type: 'string',
      jsonPath: '.status.visibility-policy-status',
      description: 'Status of visibility policy in the endpoint',
      priority: 1,
    },
    {
      name: 'Endpoint State',
      type: 'string',
      jsonPath: '.status.state',
      description: 'Endpoint current state',
    },
    {
      name: 'IPv4',
      type: 'string',
      jsonPath: '.status.networking.addressing[0].ipv4',
      description: 'Endpoint IPv4 address',
    },
    {
      name: 'IPv6',
      type: 'string',
      jsonPath: '.status.networking.addressing[0].ipv6',
      description: 'Endpoint IPv6 address',
    },
  ],
  ciliumnodes: [
    {
      name: 'CiliumInternalIP',
      type: 'string',
      jsonPath: '.spec.addresses[?(@.type=="CiliumInternalIP")].ip',
      description: 'Cilium internal IP for this node',
    },
    {
      name: 'InternalIP',
      type: 'string',
      jsonPath: '.spec.addresses[?(@.type=="InternalIP")].ip',
      description: 'IP of the node',
    },
    {
      name: 'Age',
      type: 'date',
      jsonPath: '.metadata.creationTimestamp',
      description: 'Time duration since creation of Ciliumnode',
    },
  ],
};

/** A CRD without columns gets this one (serveDefaultColumnsIfEmpty). */
export const CRD_DEFAULT_COLUMNS: PrinterColumn[] = [
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: DOC.creationTimestamp },
];

export type PathStep = { field: string } | { index: number } | { where: string; equals: string };

/** The JSONPath subset printer columns use: `.a.b`, `[0]`, `[?(@.k=="v")]`, `\.` in keys. */
export function parseJsonPath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  const step = /^(?:\.((?:\\.|[^.[\\])+)|\[(\d+)\]|\[\?\(@\.([\w-]+)=="([^"]*)"\)\])/;
  for (let rest = path; rest.length > 0; ) {
    const match = step.exec(rest);
    if (!match) throw new Error(`unsupported printer column path ${path}`);
    if (match[1] !== undefined) steps.push({ field: match[1].replace(/\\\./g, '.') });
    else if (match[2] !== undefined) steps.push({ index: Number(match[2]) });
    else steps.push({ where: match[3] ?? '', equals: match[4] ?? '' });
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/** Every value the path reaches; missing keys are skipped (AllowMissingKeys). */
export function findResults(root: unknown, steps: PathStep[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    current = current.flatMap((value): unknown[] => {
      if ('field' in step) {
        return value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, step.field)
          ? [(value as Json)[step.field]]
          : [];
      }
      if (!Array.isArray(value)) return [];
      if ('index' in step) return step.index < value.length ? [value[step.index]] : [];
      return value.filter((item) => rec(item)[step.where] === step.equals);
    });
  }
  return current.filter((value) => value !== null && value !== undefined);
}

/** The tableconvertor's cell: strings as jsonpath prints them, others per cellForJSONValue. */
export function customCell(column: PrinterColumn, object: KubeObject, now: Date): unknown {
  const [value] = findResults(object, parseJsonPath(column.jsonPath));
  if (value === undefined) return null;
  switch (column.type) {
    case 'string':
      if (typeof value === 'string') return value;
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const at = timestamp(value);
      return at === undefined ? '<invalid>' : humanDuration(now.getTime() - at);
    }
  }
}

export function customResourcePrinter(columns: PrinterColumn[]): Printer {
  return {
    columns: [NAME, ...columns.map((c) => column(c.name, c.type, c.description, c.priority ?? 0))],
    print: (object, now) => ({
      cells: [object.metadata.name, ...columns.map((c) => customCell(c, object, now))],
    }),
  };
}

/** Every built-in resource served has a printer; the rest come from CRDs. */
export function printerFor(resourcePlural: string): Printer {
  return (
    PRINTERS[resourcePlural] ??
    customResourcePrinter(CRD_PRINTER_COLUMNS[resourcePlural] ?? CRD_DEFAULT_COLUMNS)
  );
}
