const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const isEnd = (byte: number) =>
  byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isWhitespace(byte);

const decoder = new TextDecoder();

/** A copy, so the scan holds no chunk (a Buffer's `slice` is a view that would). */
const copy = (chunk: Uint8Array, from: number, to?: number) => Buffer.from(chunk.subarray(from, to));

/** Where the scan stands in the object's top level. */
const At = {
  BeforeObject: 0,
  FirstKey: 1,
  Key: 2,
  KeyText: 3,
  Colon: 4,
  Value: 5,
  /** A string, object or array: brackets matched, strings skipped. */
  Nested: 6,
  /** A number or literal: it ends at the first delimiter. */
  Bare: 7,
  Comma: 8,
  Done: 9,
  Failed: 10,
} as const;
type At = (typeof At)[keyof typeof At];

/**
 * One top-level member of a JSON object, read from its text as it arrives, chunk by chunk: the
 * rest of the text is walked (brackets matched, strings skipped) but neither built nor kept. An
 * agent's status at 100,000 nodes lists every node (tens of MB), of which a check may need one small
 * section. `write` never throws; `end` answers the member's value, parsed alone (the last one, as
 * JSON.parse keeps), undefined when the object has no such member, or throws the SyntaxError
 * JSON.parse would for text that is not one JSON object.
 */
export class JsonMemberScan {
  #at: At = At.BeforeObject;
  /** Bytes of the text before the current chunk, for positions in errors. */
  #offset = 0;
  #name: Uint8Array[] = [];
  #escaped = false;
  #inString = false;
  #depth = 0;
  #capturing = false;
  #captured: Uint8Array[] | undefined;
  #error: SyntaxError | undefined;

  constructor(private readonly key: string) {}

  write(chunk: Uint8Array): void {
    let captureFrom = 0;
    for (let index = 0; index < chunk.length && this.#at !== At.Failed; index++) {
      const byte = chunk[index] as number;
      switch (this.#at) {
        case At.Nested:
          index = this.#nested(chunk, index);
          if (this.#at !== At.Nested) this.#endValue(chunk, captureFrom, index + 1);
          break;
        case At.Bare:
          if (!isEnd(byte)) break;
          this.#endValue(chunk, captureFrom, index);
          index--; // the delimiter is the comma or brace after the value
          break;
        case At.BeforeObject:
          if (byte === OPEN_OBJECT) this.#at = At.FirstKey;
          else if (!isWhitespace(byte)) this.#fail(index, "Expected '{'");
          break;
        case At.FirstKey:
        case At.Key:
          if (byte === QUOTE) {
            this.#at = At.KeyText;
            this.#name = [];
          } else if (byte === CLOSE_OBJECT && this.#at === At.FirstKey) this.#at = At.Done;
          else if (!isWhitespace(byte)) this.#fail(index, 'Expected a property name');
          break;
        case At.KeyText: {
          const end = this.#stringEnd(chunk, index);
          this.#name.push(copy(chunk, index, end < 0 ? chunk.length : end));
          if (end < 0) index = chunk.length;
          else {
            index = end;
            this.#at = At.Colon;
          }
          break;
        }
        case At.Colon:
          if (byte === COLON) this.#at = At.Value;
          else if (!isWhitespace(byte)) this.#fail(index, "Expected ':'");
          break;
        case At.Value:
          if (isWhitespace(byte)) break;
          if (isEnd(byte)) {
            this.#fail(index, 'Expected a value');
            break;
          }
          this.#capturing = this.#nameIs(this.key);
          if (this.#capturing) {
            this.#captured = [];
            captureFrom = index;
          }
          if (byte === QUOTE || byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
            this.#at = At.Nested;
            this.#inString = byte === QUOTE;
            this.#depth = byte === QUOTE ? 0 : 1;
          } else this.#at = At.Bare;
          break;
        case At.Comma:
          if (byte === COMMA) this.#at = At.Key;
          else if (byte === CLOSE_OBJECT) this.#at = At.Done;
          else if (!isWhitespace(byte)) this.#fail(index, "Expected ',' or '}'");
          break;
        case At.Done:
          if (!isWhitespace(byte)) this.#fail(index, 'Unexpected non-whitespace character after JSON');
          break;
      }
    }
    if (this.#capturing) this.#captured?.push(copy(chunk, captureFrom));
    this.#offset += chunk.length;
  }

  end(): unknown {
    if (this.#at === At.Failed) throw this.#error;
    if (this.#at !== At.Done)
      throw new SyntaxError(
        this.#at === At.KeyText || (this.#at === At.Nested && this.#inString)
          ? `Unterminated string in JSON at position ${this.#offset}`
          : 'Unexpected end of JSON input',
      );
    if (!this.#captured) return undefined;
    return JSON.parse(decoder.decode(Buffer.concat(this.#captured)));
  }

  /** Past a string, object or array from `index`; answers the index of its last byte seen. */
  #nested(chunk: Uint8Array, from: number): number {
    let index = from;
    for (; index < chunk.length; index++) {
      const byte = chunk[index];
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) {
          this.#inString = false;
          if (this.#depth === 0) break;
        }
      } else if (byte === QUOTE) this.#inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.#depth++;
      else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --this.#depth === 0) break;
    }
    if (index < chunk.length) this.#at = At.Comma;
    return index;
  }

  /** The index of the closing quote of a string (escapes honoured) from `from`, or -1 past the chunk. */
  #stringEnd(chunk: Uint8Array, from: number): number {
    for (let index = from; index < chunk.length; index++) {
      const byte = chunk[index];
      if (this.#escaped) this.#escaped = false;
      else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) return index;
    }
    return -1;
  }

  #endValue(chunk: Uint8Array, captureFrom: number, end: number): void {
    this.#at = At.Comma;
    if (!this.#capturing) return;
    this.#captured?.push(copy(chunk, captureFrom, end));
    this.#capturing = false;
  }

  #nameIs(key: string): boolean {
    const raw = Buffer.concat(this.#name);
    const name = raw.includes(BACKSLASH)
      ? (JSON.parse(`"${decoder.decode(raw)}"`) as string)
      : decoder.decode(raw);
    return name === key;
  }

  #fail(index: number, what: string): void {
    this.#at = At.Failed;
    this.#capturing = false;
    this.#error = new SyntaxError(`${what} at position ${this.#offset + index}`);
  }
}
