/**
 * Where a JSON text stops being JSON, as the path of the value being read there
 * (`alerts[3].annotations.description`): for senders that write JSON from a template without
 * escaping, so the refusal names the label or annotation to fix. `undefined` when the text is
 * valid JSON. A small recursive-descent reader; it builds nothing.
 */
export function brokenJsonPath(text: string): string | undefined {
  const path: (string | number)[] = [];
  let i = 0;

  class Broken extends Error {}
  const fail = (): never => {
    throw new Broken();
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const expect = (char: string) => {
    if (text[i] !== char) fail();
    i++;
  };

  function string(): string {
    expect('"');
    const start = i;
    for (;;) {
      const char = text[i];
      if (char === undefined || char < ' ') fail();
      if (char === '"') break;
      if (char === '\\') {
        const next = text[i + 1] ?? '';
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (next !== '' && '"\\/bfnrt'.includes(next)) i += 2;
        else fail();
      } else i++;
    }
    i++;
    return text.slice(start, i - 1);
  }

  function members(close: string, member: (index: number) => void): void {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (let index = 0; ; index++) {
      member(index);
      space();
      if (text[i] === close) break;
      expect(',');
      path.pop();
    }
    path.pop();
    i++;
  }

  function value(): void {
    space();
    const char = text[i];
    if (char === '{')
      members('}', () => {
        space();
        path.push(string());
        space();
        expect(':');
        value();
      });
    else if (char === '[')
      members(']', (index) => {
        path.push(index);
        value();
      });
    else if (char === '"') string();
    else {
      const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 40));
      if (!literal) fail();
      i += (literal as RegExpExecArray)[0].length;
    }
  }

  try {
    value();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    return path
      .map((part, n) => (typeof part === 'number' ? `[${part}]` : n === 0 ? part : `.${part}`))
      .join('');
  }
}
