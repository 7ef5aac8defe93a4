const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

const decoder = new TextDecoder();

/** A JSON text cut short or malformed where it is walked: said as JSON.parse would. */
function broken(at: number, what: string): never {
  throw new SyntaxError(`${what} at position ${at}`);
}

/** Walks one JSON object's top-level members without building any, over the bytes of its text. */
class Walker {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  whitespace(): void {
    while (WHITESPACE.has(this.bytes[this.at] as number)) this.at++;
  }

  expect(byte: number, what: string): void {
    this.whitespace();
    if (this.bytes[this.at] !== byte)
      broken(this.at, this.at >= this.bytes.length ? 'Unexpected end of JSON input' : `Expected ${what}`);
    this.at++;
  }

  /** Past a string whose opening quote is at `at`; answers where its text starts and ends. */
  string(): [number, number] {
    const start = ++this.at;
    const { bytes } = this;
    while (this.at < bytes.length) {
      const byte = bytes[this.at++];
      if (byte === BACKSLASH) this.at++;
      else if (byte === QUOTE) return [start, this.at - 1];
    }
    return broken(this.at, 'Unterminated string in JSON');
  }

  /** Past one value of any kind, its brackets matched and its strings skipped; not checked token by token. */
  value(): void {
    this.whitespace();
    const { bytes } = this;
    const first = bytes[this.at];
    if (first === QUOTE) {
      this.string();
      return;
    }
    if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
      const start = this.at;
      while (this.at < bytes.length && !isEnd(bytes[this.at] as number)) this.at++;
      if (this.at === start)
        broken(this.at, this.at >= bytes.length ? 'Unexpected end of JSON input' : 'Expected a value');
      return;
    }
    let depth = 0;
    while (this.at < bytes.length) {
      const byte = bytes[this.at];
      if (byte === QUOTE) {
        this.string();
        continue;
      }
      this.at++;
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (--depth === 0) return;
      }
    }
    broken(this.at, 'Unexpected end of JSON input');
  }
}

const isEnd = (byte: number) =>
  byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || WHITESPACE.has(byte);

/**
 * The value of `key` in the JSON object `json` (the last one, as JSON.parse keeps), parsed alone,
 * or undefined when the object has no such member. The rest of the text is walked, its brackets
 * matched and strings skipped, but nothing of it is built: an agent's status at 100,000 nodes
 * lists every node (tens of MB), of which a check may need one small section. Throws a
 * SyntaxError for text that is not one JSON object.
 */
export function jsonMember(json: Uint8Array, key: string): unknown {
  const walker = new Walker(json);
  walker.expect(OPEN_OBJECT, "'{'");
  let found: [number, number] | undefined;
  walker.whitespace();
  if (json[walker.at] === CLOSE_OBJECT) walker.at++;
  else
    for (;;) {
      walker.whitespace();
      if (json[walker.at] !== QUOTE) broken(walker.at, 'Expected a property name');
      const [start, end] = walker.string();
      const raw = json.subarray(start, end);
      const name = raw.includes(BACKSLASH)
        ? (JSON.parse(`"${decoder.decode(raw)}"`) as string)
        : decoder.decode(raw);
      walker.expect(COLON, "':'");
      walker.whitespace();
      const from = walker.at;
      walker.value();
      if (name === key) found = [from, walker.at];
      walker.whitespace();
      const next = json[walker.at++];
      if (next === CLOSE_OBJECT) break;
      if (next !== COMMA)
        broken(walker.at - 1, next === undefined ? 'Unexpected end of JSON input' : "Expected ',' or '}'");
    }
  walker.whitespace();
  if (walker.at < json.length) broken(walker.at, 'Unexpected non-whitespace character after JSON');
  return found ? JSON.parse(decoder.decode(json.subarray(...found))) : undefined;
}
