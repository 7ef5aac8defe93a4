/** Accept negotiation: goautoneg.ParseAccept, then NegotiateMediaTypeOptions against the JSON serializer, the only one the simulator speaks. */

import { errors } from '../../status.ts';

export type Representation = 'json' | 'table' | 'partial' | 'partial-list';

export interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

/** strings.Trim(s, " "): spaces only, not tabs. */
export const trimSpaces = (text: string) => text.replace(/^ +| +$/g, '');

/** strconv.ParseFloat's decimal syntax; anything else leaves q at Go's error value, 0. */
export function parseQuality(text: string): number {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : 0;
}

export function parseAcceptClause(part: string): AcceptClause | undefined {
  const [range = '', ...rawParams] = part.split(';');
  const pieces = range.split('/');
  const type = trimSpaces(pieces[0] ?? '');
  let clause: AcceptClause;
  if (pieces.length === 1 && type === '*') clause = { type: '*', subType: '*', q: 1, params: new Map() };
  else if (pieces.length === 2)
    clause = { type, subType: trimSpaces(pieces[1] ?? ''), q: 1, params: new Map() };
  else return undefined;
  for (const param of rawParams) {
    const at = param.indexOf('=');
    if (at < 0) continue;
    const token = trimSpaces(param.slice(0, at));
    if (token === 'q') clause.q = parseQuality(param.slice(at + 1));
    else clause.params.set(token, trimSpaces(param.slice(at + 1)));
  }
  return clause;
}

/** goautoneg's ordering: higher q first, then concrete types before wildcards. */
export function before(a: AcceptClause, b: AcceptClause): boolean {
  return a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
}

export function parseAccept(header: string): AcceptClause[] {
  const clauses = header.split(',').flatMap((part) => parseAcceptClause(part) ?? []);
  // Go sorts short slices by insertion; its Less is not a strict order, so the algorithm matters.
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && before(clauses[j] as AcceptClause, clauses[j - 1] as AcceptClause); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j] as AcceptClause, clauses[j - 1] as AcceptClause];
    }
  }
  return clauses;
}

/** acceptMediaTypeOptions plus AllowsMediaTypeTransform, for application/json. */
export function representationFor(params: Map<string, string>, isList: boolean): Representation | undefined {
  const stream = params.get('stream');
  if (stream && stream !== 'watch') return undefined;
  const serverVersion = params.get('sv');
  if (serverVersion && serverVersion !== 'v1') return undefined;
  const kind = params.get('as');
  const group = params.get('g');
  const version = params.get('v');
  if (kind === undefined && group === undefined && version === undefined) return 'json';
  if (group !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) return undefined;
  if (kind === 'Table') return 'table';
  // The endpoint serves one shape: a list never as a single object, a get never as a list.
  if (kind === 'PartialObjectMetadata') return isList ? undefined : 'partial';
  if (kind === 'PartialObjectMetadataList') return isList ? 'partial-list' : undefined;
  return undefined;
}

/**
 * The representation the first acceptable Accept clause asks for; an empty header means plain
 * JSON. Protobuf and YAML clauses are passed over, since the simulator writes only JSON.
 */
export function negotiate(acceptHeader: string | undefined, isList: boolean): Representation {
  if (!acceptHeader) return 'json';
  for (const clause of parseAccept(acceptHeader)) {
    const matchesJson =
      (clause.type === 'application' && (clause.subType === 'json' || clause.subType === '*')) ||
      (clause.type === '*' && clause.subType === '*');
    const representation = matchesJson ? representationFor(clause.params, isList) : undefined;
    if (representation) return representation;
  }
  throw errors.notAcceptable(
    'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  );
}
