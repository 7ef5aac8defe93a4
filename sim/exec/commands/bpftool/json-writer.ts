/**
 * bpftool's json_writer (from iproute2): compact by default; with -p, four-space indentation that
 * opens nested objects on the same line as their separator (`},{`). Output ends with a newline.
 */
export type JsonValue = string | number | JsonValue[] | { [key: string]: JsonValue };

export function bpftoolJson(value: JsonValue, pretty: boolean): string {
  // Compact, json_writer and JSON.stringify agree byte for byte (same escapes, same key order).
  return `${pretty ? write(value, 0, pretty) : JSON.stringify(value)}\n`;
}

function write(value: JsonValue, depth: number, pretty: boolean): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return String(value);
  const eol = (d: number) => (pretty ? `\n${'    '.repeat(d)}` : '');
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((item) => write(item, depth + 1, pretty)).join(',')}${eol(depth)}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const body = entries.map(
    ([key, item]) => `${eol(depth + 1)}${quote(key)}:${pretty ? ' ' : ''}${write(item, depth + 1, pretty)}`,
  );
  return `{${body.join(',')}${eol(depth)}}`;
}

const NAMED_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Whether any character is one json_writer escapes: a quote, a backslash, a control character. */
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return true;
  }
  return false;
}

/** json_writer escapes quotes, backslashes and control characters only. */
function quote(text: string): string {
  // Most names and paths need no escaping: one scan of char codes, no string built per character.
  if (!needsEscape(text)) return `"${text}"`;
  let out = '"';
  for (const c of text) {
    const named = NAMED_ESCAPES[c];
    if (named) out += named;
    else if (c.charCodeAt(0) < 0x20) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}
