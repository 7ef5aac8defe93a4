/**
 * The small subset of POSIX sh syntax the simulated `sh -c` runs: simple commands separated by `;`
 * or newlines, `&&` and `||`, `{ ...; }` groups, single and double quotes, backslash escapes, `$?`,
 * `#` comments, and the redirections `>&2`, `1>&2` and `2>&1`. Anything else is refused with
 * ShellUnsupported (or ShellSyntaxError), so a script is never run half-understood.
 */

/** Text the simulated shell does not implement; the shell exits 2 naming it. */
export class ShellUnsupported extends Error {}

/** A script real sh would reject too (dash's wording). */
export class ShellSyntaxError extends Error {}

/** One piece of a word: literal text, or `$?` (expanded when the command runs). */
export type WordPart = { kind: 'text'; text: string } | { kind: 'status' };

export interface Word {
  parts: WordPart[];
  /** No quotes, escapes or expansions: the word as typed (how reserved words are recognised). */
  plain?: string;
}

/** A `N>&M` redirection: writes to fd `from` go where fd `to` goes. */
export interface Redirect {
  from: 1 | 2;
  to: 1 | 2;
}

export interface SimpleCommand {
  kind: 'simple';
  words: Word[];
  redirects: Redirect[];
  line: number;
}

export interface Group {
  kind: 'group';
  body: Sequence;
  redirects: Redirect[];
}

export type Command = SimpleCommand | Group;

/** `a && b || c`: each later command runs or not by the status so far. */
export interface AndOr {
  first: Command;
  rest: { op: '&&' | '||'; command: Command }[];
}

export type Sequence = AndOr[];

type Token =
  | { kind: 'word'; word: Word; line: number }
  | { kind: 'op'; op: ';' | '\n' | '&&' | '||'; line: number }
  | { kind: 'redirect'; redirect: Redirect; line: number };

const RESERVED = new Set([
  '!',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  '[[',
  ']]',
]);

function describeChar(ch: string): string {
  return ch === '\n' ? 'newline' : `"${ch}"`;
}

/** `$` followed by something other than `?`: a real expansion (unsupported) or a literal dollar. */
function dollar(script: string, i: number): WordPart | undefined {
  const next = script[i + 1];
  if (next === '?') return { kind: 'status' };
  if (next !== undefined && /[A-Za-z0-9_{(@*#!$-]/.test(next)) {
    throw new ShellUnsupported(`the expansion $${next}... (only $? is simulated)`);
  }
  return undefined;
}

function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let parts: WordPart[] | undefined;
  let raw = '';
  let quoted = false;
  let wordLine = 1;

  const text = (t: string) => {
    if (!parts) {
      parts = [];
      wordLine = line;
    }
    const last = parts[parts.length - 1];
    if (last?.kind === 'text') last.text += t;
    else parts.push({ kind: 'text', text: t });
  };
  const status = () => {
    if (!parts) {
      parts = [];
      wordLine = line;
    }
    parts.push({ kind: 'status' });
    quoted = true;
  };
  const endWord = () => {
    if (!parts) return;
    const word: Word = quoted ? { parts } : { parts, plain: raw };
    tokens.push({ kind: 'word', word, line: wordLine });
    parts = undefined;
    raw = '';
    quoted = false;
  };

  for (let i = 0; i < script.length; i++) {
    const ch = script[i] as string;
    if (ch === "'") {
      const close = script.indexOf("'", i + 1);
      if (close < 0) throw new ShellSyntaxError(`Unterminated quoted string`);
      const body = script.slice(i + 1, close);
      text(body);
      quoted = true;
      line += body.split('\n').length - 1;
      i = close;
    } else if (ch === '"') {
      text('');
      quoted = true;
      let j = i + 1;
      for (; j < script.length && script[j] !== '"'; j++) {
        const c = script[j] as string;
        if (c === '\\') {
          const n = script[j + 1];
          if (n === '\n') {
            line++;
            j++;
          } else if (n === '$' || n === '`' || n === '"' || n === '\\') {
            text(n);
            j++;
          } else text('\\');
        } else if (c === '$') {
          const part = dollar(script, j);
          if (part) {
            status();
            j++;
          } else text('$');
        } else if (c === '`') {
          throw new ShellUnsupported('command substitution');
        } else {
          if (c === '\n') line++;
          text(c);
        }
      }
      if (j >= script.length) throw new ShellSyntaxError(`Unterminated quoted string`);
      i = j;
    } else if (ch === '\\') {
      const n = script[i + 1];
      if (n === undefined) text('\\');
      else if (n === '\n') line++;
      else {
        text(n);
        quoted = true;
      }
      i++;
    } else if (ch === '$') {
      if (dollar(script, i)) {
        status();
        i++;
      } else {
        text('$');
        raw += '$';
      }
    } else if (ch === ' ' || ch === '\t') {
      endWord();
    } else if (ch === '\n') {
      endWord();
      tokens.push({ kind: 'op', op: '\n', line });
      line++;
    } else if (ch === ';') {
      endWord();
      if (script[i + 1] === ';') throw new ShellSyntaxError('";;" unexpected');
      tokens.push({ kind: 'op', op: ';', line });
    } else if (ch === '&' || ch === '|') {
      endWord();
      if (script[i + 1] !== ch) {
        throw new ShellUnsupported(ch === '&' ? 'background jobs (&)' : 'pipelines (|)');
      }
      tokens.push({ kind: 'op', op: ch === '&' ? '&&' : '||', line });
      i++;
    } else if (ch === '>' || ch === '<') {
      let from: number = ch === '>' ? 1 : 0;
      if (parts && !quoted && /^[0-9]$/.test(raw)) {
        from = Number(raw);
        parts = undefined;
        raw = '';
      } else endWord();
      const target = script.slice(i, i + 3);
      if ((target === '>&1' || target === '>&2') && (from === 1 || from === 2)) {
        const to = Number(target[2]) as 1 | 2;
        tokens.push({ kind: 'redirect', redirect: { from, to }, line });
        i += 2;
      } else {
        throw new ShellUnsupported(`the redirection ${script.slice(i, i + 4).trim()}... (only >&2 and 2>&1)`);
      }
    } else if (ch === '#' && !parts) {
      while (i + 1 < script.length && script[i + 1] !== '\n') i++;
    } else if (ch === '(' || ch === ')') {
      throw new ShellUnsupported('subshells and functions ( )');
    } else if (ch === '`') {
      throw new ShellUnsupported('command substitution');
    } else if (ch === '*' || ch === '?' || ch === '[') {
      throw new ShellUnsupported(`pathname expansion (${ch} unquoted)`);
    } else if (ch === '~' && !parts) {
      throw new ShellUnsupported('tilde expansion');
    } else {
      text(ch);
      raw += ch;
    }
  }
  endWord();
  return tokens;
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private skipNewlines(): void {
    while (this.peekOp('\n')) this.at++;
  }

  private peekOp(op: string): boolean {
    const token = this.peek();
    return token?.kind === 'op' && token.op === op;
  }

  private peekPlain(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.word.plain === word;
  }

  private unexpected(): never {
    const token = this.peek();
    if (!token) throw new ShellSyntaxError('end of file unexpected');
    const what =
      token.kind === 'op'
        ? describeChar(token.op)
        : token.kind === 'word'
          ? `"${token.word.plain ?? 'word'}"`
          : 'redirection';
    throw new ShellSyntaxError(`${what} unexpected`);
  }

  /** Commands up to the end of the script, or to the `}` that closes a group. */
  sequence(inGroup: boolean): Sequence {
    const items: AndOr[] = [];
    for (;;) {
      while (this.peekOp('\n') || (items.length > 0 && this.peekOp(';'))) this.at++;
      const token = this.peek();
      if (!token) break;
      if (inGroup && this.peekPlain('}')) break;
      items.push(this.andOr());
      const after = this.peek();
      if (!after) break;
      if (after.kind === 'op' && (after.op === ';' || after.op === '\n')) {
        this.at++;
        continue;
      }
      if (inGroup && this.peekPlain('}')) break;
      this.unexpected();
    }
    return items;
  }

  private andOr(): AndOr {
    const first = this.command();
    const rest: AndOr['rest'] = [];
    for (;;) {
      const token = this.peek();
      if (token?.kind !== 'op' || (token.op !== '&&' && token.op !== '||')) break;
      this.at++;
      this.skipNewlines();
      rest.push({ op: token.op, command: this.command() });
    }
    return { first, rest };
  }

  /** Redirections after a group's closing brace. */
  private redirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (let next = this.peek(); next?.kind === 'redirect'; next = this.peek()) {
      redirects.push(next.redirect);
      this.at++;
    }
    return redirects;
  }

  private command(): Command {
    const token = this.peek();
    if (!token || token.kind === 'op') this.unexpected();
    if (token.kind === 'word' && token.word.plain === '{') {
      this.at++;
      const body = this.sequence(true);
      if (!this.peekPlain('}')) this.unexpected();
      if (body.length === 0) throw new ShellSyntaxError('"}" unexpected');
      this.at++;
      return { kind: 'group', body, redirects: this.redirects() };
    }
    if (token.kind === 'word' && token.word.plain !== undefined) {
      const plain = token.word.plain;
      if (RESERVED.has(plain)) throw new ShellUnsupported(`the reserved word "${plain}"`);
      if (plain === '}') this.unexpected();
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(plain)) throw new ShellUnsupported('variable assignments');
    }
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let next = this.peek(); next && next.kind !== 'op'; next = this.peek()) {
      if (next.kind === 'word') words.push(next.word);
      else redirects.push(next.redirect);
      this.at++;
    }
    if (words.length === 0) throw new ShellUnsupported('a redirection without a command');
    return { kind: 'simple', words, redirects, line: token.line };
  }
}

/** The script as a sequence of and-or lists; throws ShellSyntaxError or ShellUnsupported. */
export function parseScript(script: string): Sequence {
  const tokens = tokenize(script);
  const parser = new Parser(tokens);
  return parser.sequence(false);
}
