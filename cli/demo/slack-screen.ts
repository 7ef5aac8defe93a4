import { clip } from './compact.ts';

/** Items shown per list of a message in full; the rest are counted. */
const MAX_ITEMS = 3;

/** A console-sink message cut to the demo's screen: lists to a few items, lines to its width. */
function fitToScreen(message: string): string[] {
  const out: string[] = [];
  let hidden = 0;
  let shown = 0;
  const flush = () => {
    if (hidden > 0) out.push(`    …and ${hidden} more`);
    hidden = 0;
  };
  for (const line of message.split('\n').filter((l) => l !== '')) {
    if (line.startsWith('    - ')) {
      if (shown++ < MAX_ITEMS) out.push(clip(line));
      else hidden++;
      continue;
    }
    if (/^ {4}…and \d+ more$/.test(line)) {
      hidden += Number(line.match(/\d+/)?.[0] ?? 0);
      continue;
    }
    flush();
    shown = 0;
    out.push(clip(line));
  }
  flush();
  return out;
}

/**
 * Where the demo's console sink writes: each message (one write) shown in full, cut to the
 * screen, when its thread is one of `focus`; as its first line otherwise.
 */
export function slackScreen(
  out: NodeJS.WritableStream,
  focus: (header: string) => boolean,
  beforeWrite: () => void = () => {},
): NodeJS.WritableStream {
  // Synchronous, like the terminal it stands for: messages keep their order with the other output.
  const screen = {
    write(chunk: Buffer | string): boolean {
      const lines = fitToScreen(chunk.toString());
      const shown = focus(lines[0] ?? '') ? lines : lines.slice(0, 1);
      beforeWrite();
      return out.write(`${shown.join('\n')}\n`);
    },
  };
  return screen as unknown as NodeJS.WritableStream;
}
