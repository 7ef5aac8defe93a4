/**
 * Kubernetes label selectors, as k8s.io/apimachinery parses and matches them: the `labels.Parse`
 * grammar (=, ==, !=, in, notin, exists, !key, gt, lt) with Go's error texts, and metav1.LabelSelector
 * matching as PodDisruptionBudgets and NetworkPolicies use it. Pure: callers decide what an invalid
 * selector means (the simulator answers 400; the responder reports a config error).
 */

/** Whether labels match a selector: what {@link parseLabelSelector} returns. */
export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

// ---------------------------------------------------------------------------------------------
// Go formatting helpers the messages depend on.

const GO_ESCAPES = new Map([
  ['\x07', '\\a'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\v', '\\v'],
  ['"', '\\"'],
  ['\\', '\\\\'],
]);

/** strconv.Quote, the `%q` verb: escapes quotes, backslashes and what Go deems unprintable. */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    const escaped = GO_ESCAPES.get(ch);
    if (escaped) out += escaped;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch)) {
      // Go's unicode.IsPrint admits only the ASCII space among separators.
      out +=
        code > 0xffff
          ? `\\U${code.toString(16).padStart(8, '0')}`
          : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** field.Invalid(path, value, detail).Error(); a nil path prints as `<nil>`. */
function invalidValue(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${goQuote(value)}: ${detail}`;
}

/** utilerrors.Aggregate.Error() over a deduplicated field.ErrorList. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

// ---------------------------------------------------------------------------------------------
// k8s.io/apimachinery/pkg/util/validation, as 1.33 words it. Lengths are bytes, as Go's len().

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

const fullMatch = (format: string) => new RegExp(`^(?:${format})$`);
const qualifiedName = fullMatch(QUALIFIED_NAME_FMT);
const labelValue = fullMatch(LABEL_VALUE_FMT);
const dns1123Subdomain = fullMatch(DNS1123_SUBDOMAIN_FMT);

const byteLength = (value: string) => Buffer.byteLength(value, 'utf8');
const maxLenError = (length: number) => `must be no more than ${length} characters`;

function regexError(message: string, format: string, ...examples: string[]): string {
  const shown = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!dns1123Subdomain.test(value))
    errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  const errs: string[] = [];
  let name: string;
  if (parts.length === 1) name = parts[0] ?? '';
  else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123SubdomainErrors(prefix).map((msg) => `prefix part ${msg}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!qualifiedName.test(name)) {
    errs.push(
      `name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!labelValue.test(value))
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Label selectors: a port of the labels.Parse lexer and recursive-descent parser.

type Token =
  | 'end'
  | 'closedPar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

const LITERAL_TOKENS = new Map<string, Token>([
  [')', 'closedPar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

/** selection.Operator values, whose spelling appears in the "expected:" message. */
type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

interface Requirement {
  key: string;
  operator: Operator;
  /** Sorted and deduplicated, as sets.String.List() leaves them. */
  values: string[];
}

interface ScannedItem {
  token: Token;
  literal: string;
}

/** A parse failure, carrying the text kube-apiserver answers with. */
/** A selector the grammar rejects; the message is apimachinery's. */
export class SelectorSyntaxError extends Error {}

const END_OF_INPUT = '\0';
const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => '=!(),><'.includes(ch);

class Lexer {
  private pos = 0;
  constructor(private readonly text: string) {}

  /** Like Go's read(): a NUL both ends the input and, when literal, is consumed. */
  private read(): string {
    if (this.pos >= this.text.length) return END_OF_INPUT;
    return this.text[this.pos++] ?? END_OF_INPUT;
  }

  private unread(): void {
    this.pos--;
  }

  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === END_OF_INPUT) return { token: 'end', literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdentifierOrKeyword();
  }

  private scanIdentifierOrKeyword(): ScannedItem {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === END_OF_INPUT) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { token: LITERAL_TOKENS.get(buffer) ?? 'identifier', literal: buffer };
  }

  /** The longest run of operator characters that is a token: "!=" rather than "!" then "=". */
  private scanSpecialSymbol(): ScannedItem {
    let buffer = this.read();
    // Every operator character is a token on its own, so the first always is.
    let last: ScannedItem = { token: LITERAL_TOKENS.get(buffer) as Token, literal: buffer };
    for (;;) {
      const ch = this.read();
      if (ch === END_OF_INPUT) break;
      const token = isSpecialSymbol(ch) ? LITERAL_TOKENS.get(buffer + ch) : undefined;
      if (!token) {
        this.unread();
        break;
      }
      buffer += ch;
      last = { token, literal: buffer };
    }
    return last;
  }
}

/** In value position `in` and `notin` are plain identifiers ("x in (in)"). */
type ParserContext = 'keyAndOperator' | 'values';

class Parser {
  private readonly items: ScannedItem[] = [];
  private position = 0;

  constructor(text: string) {
    const lexer = new Lexer(text);
    for (;;) {
      const item = lexer.lex();
      this.items.push(item);
      if (item.token === 'end') break;
    }
  }

  private itemAt(index: number, context: ParserContext): ScannedItem {
    const item = this.items[index] ?? { token: 'end', literal: '' };
    if (context === 'values' && (item.token === 'in' || item.token === 'notIn')) {
      return { token: 'identifier', literal: item.literal };
    }
    return item;
  }

  private lookahead(context: ParserContext): ScannedItem {
    return this.itemAt(this.position, context);
  }

  private consume(context: ParserContext): ScannedItem {
    return this.itemAt(this.position++, context);
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead('values');
      if (token === 'end') return requirements;
      if (token !== 'identifier' && token !== 'doesNotExist') {
        throw new SelectorSyntaxError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      try {
        requirements.push(this.parseRequirement());
      } catch (error) {
        if (!(error instanceof SelectorSyntaxError)) throw error;
        throw new SelectorSyntaxError(`unable to parse requirement: ${error.message}`);
      }
      const next = this.consume('values');
      if (next.token === 'end') return requirements;
      if (next.token !== 'comma') {
        throw new SelectorSyntaxError(`found '${next.literal}', expected: ',' or 'end of string'`);
      }
      const afterComma = this.lookahead('values');
      if (afterComma.token !== 'identifier' && afterComma.token !== 'doesNotExist') {
        throw new SelectorSyntaxError(`found '${afterComma.literal}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator: unary } = this.parseKeyAndInferOperator();
    if (unary) return newRequirement(key, unary, []);
    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, operator, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator?: Operator } {
    let item = this.consume('values');
    const negated = item.token === 'doesNotExist';
    if (negated) item = this.consume('values');
    if (item.token !== 'identifier')
      throw new SelectorSyntaxError(`found '${item.literal}', expected: identifier`);
    const keyErrors = qualifiedNameErrors(item.literal);
    if (keyErrors.length > 0)
      throw new SelectorSyntaxError(invalidValue('<nil>', item.literal, keyErrors.join('; ')));
    // "!key=value" stays a DoesNotExist requirement; the "=" then fails as a stray token.
    if (negated) return { key: item.literal, operator: '!' };
    const next = this.lookahead('values').token;
    return next === 'end' || next === 'comma'
      ? { key: item.literal, operator: 'exists' }
      : { key: item.literal };
  }

  private parseOperator(): Operator {
    const { token, literal } = this.consume('keyAndOperator');
    const operators: Partial<Record<Token, Operator>> = {
      in: 'in',
      equals: '=',
      doubleEquals: '==',
      greaterThan: 'gt',
      lessThan: 'lt',
      notIn: 'notin',
      notEquals: '!=',
    };
    const operator = operators[token];
    if (!operator) throw new SelectorSyntaxError(`found '${literal}', expected: ${BINARY_OPERATORS}`);
    return operator;
  }

  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.token !== 'openPar') throw new SelectorSyntaxError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead('values');
    if (token === 'identifier' || token === 'comma') return this.parseIdentifiersList();
    if (token === 'closedPar') {
      this.consume('values');
      return new Set(['']);
    }
    throw new SelectorSyntaxError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  /** Consumes the closing parenthesis too; empty entries ("(a,,b)", "(,)") stand for "". */
  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume('values');
      if (token === 'identifier') {
        values.add(literal);
        const next = this.lookahead('values');
        if (next.token === 'comma') continue;
        if (next.token === 'closedPar') {
          this.consume('values');
          return values;
        }
        throw new SelectorSyntaxError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token !== 'comma')
        throw new SelectorSyntaxError(`found '${literal}', expected: ',', or identifier`);
      if (values.size === 0) values.add('');
      const next = this.lookahead('values').token;
      if (next === 'closedPar') {
        values.add('');
        this.consume('values');
        return values;
      }
      if (next === 'comma') values.add('');
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').token;
    if (next === 'end' || next === 'comma') return new Set(['']);
    const { token, literal } = this.consume('values');
    if (token !== 'identifier') throw new SelectorSyntaxError(`found '${literal}', expected: identifier`);
    return new Set([literal]);
  }
}

/** strconv.ParseInt(value, 10, 64). */
function parseInt64(value: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return undefined;
  const parsed = BigInt(value);
  return parsed >= -(2n ** 63n) && parsed < 2n ** 63n ? parsed : undefined;
}

/** labels.NewRequirement's checks that a parsed requirement can still fail. */
function newRequirement(key: string, operator: Operator, values: string[]): Requirement {
  const problems: string[] = [];
  if (operator === 'gt' || operator === 'lt') {
    values.forEach((value, i) => {
      if (parseInt64(value) === undefined) {
        problems.push(
          invalidValue(`values[${i}]`, value, "for 'Gt', 'Lt' operators, the value must be an integer"),
        );
      }
    });
  }
  values.forEach((value, i) => {
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0)
      problems.push(invalidValue(`values[${i}][${key}]`, value, valueErrors.join('; ')));
  });
  if (problems.length > 0) throw new SelectorSyntaxError(aggregate(problems));
  return { key, operator, values };
}

function requirementMatches(requirement: Requirement, labels: Record<string, string>): boolean {
  const present = Object.hasOwn(labels, requirement.key);
  const value = labels[requirement.key] ?? '';
  switch (requirement.operator) {
    case 'in':
    case '=':
    case '==':
      return present && requirement.values.includes(value);
    case 'notin':
    case '!=':
      return !present || !requirement.values.includes(value);
    case 'exists':
      return present;
    case '!':
      return !present;
    case 'gt':
    case 'lt': {
      const actual = present ? parseInt64(value) : undefined;
      const bound = parseInt64(requirement.values[0] ?? '');
      if (actual === undefined || bound === undefined) return false;
      return requirement.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

/**
 * A label selector in kubectl's text form, as Kubernetes' labels.Parse reads it; an empty
 * selector matches everything. Invalid text throws, naming what is wrong.
 *
 * @example
 * ```ts
 * const matches = parseLabelSelector('k8s-app in (kube-dns, coredns),tier!=batch');
 * matches({ 'k8s-app': 'kube-dns' }); // true
 * ```
 */
export function parseLabelSelector(text: string): LabelMatcher {
  const requirements = new Parser(text).parse();
  return (labels) => requirements.every((requirement) => requirementMatches(requirement, labels ?? {}));
}

// ---------------------------------------------------------------------------------------------
// metav1.LabelSelector, as PDBs and NetworkPolicies carry it.

/** One `matchExpressions` entry of a {@link LabelSelector}. */
export interface LabelSelectorRequirement {
  /** The label's key. */
  key: string;
  /** `In`, `NotIn`, `Exists` or `DoesNotExist`. */
  operator: string;
  /** For `In` and `NotIn`. */
  values?: string[];
}

/** A label selector as objects carry it (metav1.LabelSelector: PDBs, NetworkPolicies, Deployments). */
export interface LabelSelector {
  /** Labels that must have these values. */
  matchLabels?: Record<string, string>;
  /** Requirements that must all hold. */
  matchExpressions?: LabelSelectorRequirement[];
}

const SELECTOR_OPERATORS: Record<string, Operator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/** What labels.NewRequirement would reject, making LabelSelectorAsSelector fail. */
function isInvalidRequirement({ key, operator, values }: Requirement): boolean {
  const setBased = operator === 'in' || operator === 'notin';
  const unary = operator === 'exists' || operator === '!';
  return (
    qualifiedNameErrors(key).length > 0 ||
    (setBased && values.length === 0) ||
    (unary && values.length > 0) ||
    values.some((value) => labelValueErrors(value).length > 0)
  );
}

/** metav1.LabelSelectorAsSelector's requirements, sorted by key; undefined where it fails. */
function selectorRequirements(selector: LabelSelector): Requirement[] | undefined {
  const expressions = selector.matchExpressions ?? [];
  if (expressions.some((expression) => !Object.hasOwn(SELECTOR_OPERATORS, expression.operator)))
    return undefined;
  const requirements = [
    ...Object.entries(selector.matchLabels ?? {}).map(
      ([key, value]): Requirement => ({ key, operator: '=', values: [value] }),
    ),
    ...expressions.map(
      (expression): Requirement => ({
        key: expression.key,
        operator: SELECTOR_OPERATORS[expression.operator] as Operator,
        values: expression.values ?? [],
      }),
    ),
  ];
  if (requirements.some(isInvalidRequirement)) return undefined;
  return requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * metav1.LabelSelectorAsSelector then Matches: a null selector matches nothing, an empty one
 * everything. A selector that fails conversion (unknown operator, invalid key or values) is one
 * the PDB and NetworkPolicy controllers skip, so it matches nothing.
 *
 * @example
 * ```ts
 * const policy = await ctx.kube.get(RESOURCES.networkpolicies, 'shop', 'web-ingress');
 * const spec = policy.spec as { podSelector?: LabelSelector };
 * const selectsPod = matchLabelSelectorObject(spec.podSelector, pod.labels);
 * ```
 */
export function matchLabelSelectorObject(
  selector: LabelSelector | null | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  const requirements = selector ? selectorRequirements(selector) : undefined;
  return requirements?.every((requirement) => requirementMatches(requirement, labels ?? {})) ?? false;
}

function requirementString({ key, operator, values }: Requirement): string {
  if (operator === 'exists') return key;
  if (operator === '!') return `!${key}`;
  const shown = [...values].sort().join(',');
  if (operator === 'in' || operator === 'notin') return `${key} ${operator} (${shown})`;
  return `${key}${operator === 'gt' ? '>' : operator === 'lt' ? '<' : operator}${shown}`;
}

/**
 * labels.Selector.String() of the converted selector ("" for null or empty selectors), or
 * undefined where the conversion fails; printers show that as <invalid> or <error>.
 */
export function labelSelectorString(selector: LabelSelector | null | undefined): string | undefined {
  if (!selector) return '';
  return selectorRequirements(selector)?.map(requirementString).join(',');
}
