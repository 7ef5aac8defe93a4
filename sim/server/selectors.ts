/**
 * Label and field selectors as kube-apiserver 1.33 applies them to lists: the label grammar (shared
 * with the responder, in src/cluster/label-selector.ts) answered with a 400 when invalid, and
 * fields.ParseSelector with the per-kind field label conversions and error texts.
 */
import {
  goQuote,
  type LabelMatcher,
  parseLabelSelector as parseLabels,
  SelectorSyntaxError,
} from '../../src/cluster/label-selector.ts';
import type { KubeObject } from '../objects.ts';
import { type ResourceType, resourceByPlural } from '../resources.ts';
import { errors } from '../status.ts';

export type FieldMatcher = (object: KubeObject) => boolean;

/** labels.Parse for a list request: invalid input is a 400 with Go's message. */
export function parseLabelSelector(text: string): LabelMatcher {
  try {
    return parseLabels(text);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) throw errors.badRequest(error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Field selectors: fields.ParseSelector, then the kind's field label conversion, then matching
// against the fields the registry's GetAttrs exposes.

interface FieldTerm {
  field: string;
  value: string;
  negated: boolean;
}

/** Splits on commas that are not backslash-escaped; the escapes stay in the terms. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inSlash) inSlash = false;
    else if (ch === '\\') inSlash = true;
    else if (ch === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The first operator occurrence splits; "!=" and "==" are tried before "=" at each position. */
function splitTerm(term: string): { field: string; operator: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const operator of ['!=', '==', '=']) {
      if (term.startsWith(operator, i))
        return { field: term.slice(0, i), operator, rhs: term.slice(i + operator.length) };
    }
  }
  return undefined;
}

function unescapeValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const ch of value) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') {
        throw errors.badRequest(`invalid field selector: invalid escape sequence: \\${ch}`);
      }
      out += ch;
      inSlash = false;
    } else if (ch === '\\') inSlash = true;
    else if (ch === ',' || ch === '=') {
      // Go prints the rune with %v, which is its code point.
      throw errors.badRequest(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    } else out += ch;
  }
  if (inSlash) throw errors.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Built-in groups are unqualified or end in .k8s.io; anything else here is served from a CRD. */
function isCustomResource(resource: ResourceType): boolean {
  return resource.group.includes('.') && !resource.group.endsWith('.k8s.io');
}

const POD_FIELD_LABELS = new Set([
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
]);

const EVENT_FIELD_LABELS = new Set([
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
]);

/** Kinds that register an AddFieldLabelConversionFunc in pkg/apis/core/v1/conversion.go. */
const REGISTERED_FIELD_LABELS: Record<string, Set<string>> = {
  pods: POD_FIELD_LABELS,
  nodes: new Set(['metadata.name', 'spec.unschedulable']),
  events: EVENT_FIELD_LABELS,
  namespaces: new Set(['status.phase', 'metadata.name']),
};

/** scheme.ConvertFieldLabel for the resource: the label the storage matches on, or a 400. */
function convertFieldLabel(resource: ResourceType, label: string): string {
  const registered = REGISTERED_FIELD_LABELS[resource.plural];
  if (registered) {
    if (registered.has(label)) return label;
    // Kept for old v1 clients that send spec.host.
    if (resource.plural === 'pods' && label === 'spec.host') return 'spec.nodeName';
    throw errors.badRequest(`field label not supported: ${label}`);
  }
  if (isCustomResource(resource)) {
    if (label === 'metadata.name' || (resource.namespaced && label === 'metadata.namespace')) return label;
    throw errors.badRequest(`field label not supported: ${label}`);
  }
  // runtime.DefaultMetaV1FieldSelectorConversion: apps/v1 registers no conversion, so even the
  // status.replicas that ReplicaSet storage indexes is rejected here.
  if (label === 'metadata.name' || label === 'metadata.namespace') return label;
  throw errors.badRequest(
    `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
  );
}

export type Fields = Record<string, string>;
type Loose = Record<string, unknown> | undefined;

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const record = (value: unknown): Loose =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;

function podFields(object: KubeObject): Fields {
  const spec = record(object.spec);
  const status = record(object.status);
  const podIPs = Array.isArray(status?.podIPs) ? status.podIPs : [];
  return {
    'spec.nodeName': str(spec?.nodeName),
    'spec.restartPolicy': str(spec?.restartPolicy),
    'spec.schedulerName': str(spec?.schedulerName),
    'spec.serviceAccountName': str(spec?.serviceAccountName),
    'spec.hostNetwork': String(spec?.hostNetwork === true),
    'status.phase': str(status?.phase),
    // The internal type keeps only podIPs; conversion fills it from podIP when absent.
    'status.podIP': str(record(podIPs[0])?.ip) || str(status?.podIP),
    'status.nominatedNodeName': str(status?.nominatedNodeName),
  };
}

function eventFields(object: KubeObject): Fields {
  const involved = record(object.involvedObject);
  const reportingController = str(object.reportingComponent);
  return {
    'involvedObject.kind': str(involved?.kind),
    'involvedObject.namespace': str(involved?.namespace),
    'involvedObject.name': str(involved?.name),
    'involvedObject.uid': str(involved?.uid),
    'involvedObject.apiVersion': str(involved?.apiVersion),
    'involvedObject.resourceVersion': str(involved?.resourceVersion),
    'involvedObject.fieldPath': str(involved?.fieldPath),
    reason: str(object.reason),
    reportingComponent: reportingController,
    source: str(record(object.source)?.component) || reportingController,
    type: str(object.type),
  };
}

const SPECIFIC_FIELDS: Record<string, (object: KubeObject) => Fields> = {
  pods: podFields,
  events: eventFields,
  nodes: (object) => ({ 'spec.unschedulable': String(record(object.spec)?.unschedulable === true) }),
  namespaces: (object) => ({ 'status.phase': str(record(object.status)?.phase) }),
};

/** The fields.Set the registry's GetAttrs builds; absent fields read as "". */
export function selectableFields(resource: ResourceType, object: KubeObject): Fields {
  return {
    'metadata.name': object.metadata.name,
    ...(resource.namespaced ? { 'metadata.namespace': object.metadata.namespace ?? '' } : {}),
    ...SPECIFIC_FIELDS[resource.plural]?.(object),
  };
}

/** fields.ParseSelector plus the kind's label conversion; an empty selector matches everything. */
export function parseFieldSelector(resourcePlural: string, text: string): FieldMatcher {
  const resource = resourceByPlural(resourcePlural);
  const matchFields = parseFieldTerms(resourcePlural, text);
  return (object) => matchFields(selectableFields(resource, object));
}

/** The same selector, matched against an object's selectable fields. */
export function parseFieldTerms(resourcePlural: string, text: string): (fields: Fields) => boolean {
  const resource = resourceByPlural(resourcePlural);
  const terms: FieldTerm[] = [];
  for (const part of splitTerms(text).sort()) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw errors.badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    terms.push({ field: split.field, value: unescapeValue(split.rhs), negated: split.operator === '!=' });
  }
  const converted = terms.map((term) => ({ ...term, field: convertFieldLabel(resource, term.field) }));
  return (fields) => converted.every((term) => ((fields[term.field] ?? '') === term.value) !== term.negated);
}
