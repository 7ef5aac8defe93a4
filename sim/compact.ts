import type { ByteSink } from './byte-sink.ts';
import { deepFreeze, type KubeObject } from './objects.ts';

/**
 * How a kind of generated object is kept as a compact row (see Store.createCompact) and read back
 * without being built. Rows of one shape (a workload's pods) make the same object but for a few
 * values of their own (name, node, address, ids), so the shape's object is built once with a
 * marker in place of each value, written as JSON once, and a row's JSON is that text with its
 * values spliced in: a page of 500 pods then costs 500 splices, not 500 objects built, frozen and
 * serialised. The object a row makes is the contract; the spliced bytes must equal its JSON.
 */
export interface CompactKind<R> {
  /**
   * What the rows that make the same object but for their values share (compared by identity);
   * undefined for a row whose shape no other row has, which a read builds (a template would not pay).
   */
  shape(row: R): object | undefined;
  /** The row's own values, in a fixed order; every one appears in the object as made, unaltered. */
  values(row: R): readonly Value[];
  /** The whole object but its resourceVersion, as `row`'s shape makes it with `values` as the row's. */
  makeWith(row: R, values: readonly Value[]): KubeObject;
}

export type Value = string | number;

/** What a page needs from an object: its JSON as served, or a value derived from it (selector fields). */
export type Projection = (object: KubeObject) => unknown;

/** The full object of a row, stamped with its resourceVersion and frozen, as every read returns it. */
export function makeRow<R>(kind: CompactKind<R>, row: R, revision: number): KubeObject {
  const made = kind.makeWith(row, kind.values(row));
  made.metadata.resourceVersion = String(revision);
  return deepFreeze(made);
}

// A value's marker: a character no generated object holds, the value's index, the character again.
const MARK = '\u2063';
const MARKER = /\u2063(\d+)\u2063/g;
const marker = (index: number) => `${MARK}${index}${MARK}`;

/** A JSON text cut at its markers: `parts[i]`, then value `slots[i]`, ..., then the last part. */
interface JsonTemplate {
  parts: string[];
  /** The parts as UTF-8, for writing into a sink. */
  bytes: Buffer[];
  slots: number[];
  /** Whether the slot is a whole JSON string (replaced quotes and all) or inside one. */
  whole: boolean[];
}

function compileJson(text: string): JsonTemplate {
  const template: JsonTemplate = { parts: [], bytes: [], slots: [], whole: [] };
  let from = 0;
  for (const match of text.matchAll(MARKER)) {
    const start = match.index;
    const end = start + match[0].length;
    let escapes = 0;
    while (text[start - 2 - escapes] === '\\') escapes++;
    const whole = text[start - 1] === '"' && escapes % 2 === 0 && text[end] === '"';
    template.parts.push(text.slice(from, whole ? start - 1 : start));
    template.slots.push(Number(match[1]));
    template.whole.push(whole);
    from = whole ? end + 1 : end;
  }
  template.parts.push(text.slice(from));
  template.bytes = template.parts.map((part) => Buffer.from(part));
  return template;
}

/** A value as it stands in the JSON: a whole token, or the inside of a string. */
function valueJson(value: Value, whole: boolean): string {
  const json = JSON.stringify(value);
  return whole || typeof value !== 'string' ? json : json.slice(1, -1);
}

function spliceJson(template: JsonTemplate, values: readonly Value[]): string {
  const { parts, slots, whole } = template;
  let text = parts[0] as string;
  for (let i = 0; i < slots.length; i++) {
    text += valueJson(values[slots[i] as number] as Value, whole[i] as boolean) + parts[i + 1];
  }
  return text;
}

function writeSpliced(template: JsonTemplate, values: readonly Value[], sink: ByteSink): void {
  const { bytes, slots, whole } = template;
  sink.bytes(bytes[0] as Buffer);
  for (let i = 0; i < slots.length; i++) {
    sink.text(valueJson(values[slots[i] as number] as Value, whole[i] as boolean));
    sink.bytes(bytes[i + 1] as Buffer);
  }
}

/** `value` with the markers in its strings replaced by the values (a string that is one marker becomes the value). */
function spliceValue(value: unknown, values: readonly Value[]): unknown {
  if (typeof value === 'string') {
    if (!value.includes(MARK)) return value;
    const only = /^\u2063(\d+)\u2063$/.exec(value);
    if (only) return values[Number(only[1])];
    return value.replace(MARKER, (_, index: string) => String(values[Number(index)]));
  }
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = value.map((item) => spliceValue(item, values));
    return out.every((item, i) => item === value[i]) ? value : out;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const spliced = spliceValue(item, values);
    if (spliced !== item) out ??= { ...value };
    if (out) out[key] = spliced;
  }
  return out ?? value;
}

/** What one shape's rows share: its object with markers, and what each projection of it became. */
class Template {
  readonly json = new Map<Projection, JsonTemplate>();
  readonly derived = new Map<Projection, { value: unknown; marked: boolean }>();
  constructor(readonly marked: KubeObject) {}
}

/**
 * The templates of the shapes read last, per kind. A list walks its keys in order, and a shape's
 * rows sit together there (a workload's pods share its name's prefix), so a few thousand suffice;
 * one per shape for good would add a node's worth of heap per 100 nodes.
 */
const TEMPLATES_KEPT = 2048;
const templates = new WeakMap<CompactKind<never>, Map<object, Template>>();

function templateOf<R>(kind: CompactKind<R>, row: R, valueCount: number): Template {
  let byShape = templates.get(kind as CompactKind<never>);
  if (!byShape) {
    byShape = new Map();
    templates.set(kind as CompactKind<never>, byShape);
  }
  const shape = kind.shape(row) as object;
  let template = byShape.get(shape);
  if (!template) {
    const markers = Array.from({ length: valueCount }, (_, i) => marker(i));
    // The resourceVersion is the last value, stamped last as every read stamps it.
    const marked = makeRowWith(kind, row, markers, marker(valueCount));
    template = new Template(marked);
    if (byShape.size >= TEMPLATES_KEPT) byShape.delete(byShape.keys().next().value as object);
    byShape.set(shape, template);
  }
  return template;
}

function makeRowWith<R>(kind: CompactKind<R>, row: R, values: readonly Value[], resourceVersion: string) {
  const made = kind.makeWith(row, values);
  made.metadata.resourceVersion = resourceVersion;
  return deepFreeze(made);
}

/**
 * One compact row read at a revision: its JSON and derived values without building it. The first
 * row of each shape and projection is also built and compared, so a kind that breaks its contract
 * (a value altered or branched on by makeWith) fails loudly rather than serving wrong bytes.
 */
export class CompactRead<R> {
  private ownValues: Value[] | undefined;
  private tmpl: Template | undefined;
  private built: KubeObject | undefined;

  constructor(
    private readonly kind: CompactKind<R>,
    private readonly row: R,
    readonly revision: number,
  ) {}

  object(): KubeObject {
    this.built ??= makeRow(this.kind, this.row, this.revision);
    return this.built;
  }

  private values(): Value[] {
    if (!this.ownValues) {
      this.ownValues = [...this.kind.values(this.row), String(this.revision)];
    }
    return this.ownValues;
  }

  private template(): Template {
    this.tmpl ??= templateOf(this.kind, this.row, this.values().length - 1);
    return this.tmpl;
  }

  /** JSON.stringify(project(object)), spliced into `sink`. */
  writeJson(project: Projection, sink: ByteSink): void {
    writeSpliced(this.compiled(project), this.values(), sink);
  }

  private compiled(project: Projection): JsonTemplate {
    const template = this.template();
    let compiled = template.json.get(project);
    if (!compiled) {
      compiled = compileJson(JSON.stringify(project(template.marked)));
      check(spliceJson(compiled, this.values()), JSON.stringify(project(this.object())), project);
      template.json.set(project, compiled);
    }
    return compiled;
  }

  /** project(object), spliced: values built from the object (selector fields) without building it. */
  derived<T>(project: (object: KubeObject) => T): T {
    const template = this.template();
    let found = template.derived.get(project);
    if (!found) {
      const value = project(template.marked);
      found = { value, marked: (JSON.stringify(value) ?? '').includes(MARK) };
      check(
        JSON.stringify(found.marked ? spliceValue(value, this.values()) : value),
        JSON.stringify(project(this.object())),
        project,
      );
      template.derived.set(project, found);
    }
    return (found.marked ? spliceValue(found.value, this.values()) : found.value) as T;
  }
}

function check(spliced: string, built: string, project: Projection): void {
  if (spliced !== built) {
    throw new Error(
      `a compact row's ${project.name || 'projection'} differs from its object's: ${spliced} vs ${built}`,
    );
  }
}
