/**
 * Go's text/tabwriter with a space pad character and no flags, as Cilium's CLIs configure it
 * (`tabwriter.NewWriter(w, minWidth, 0, padding, ' ', 0)`). Cells end at a tab; the last cell of a
 * line is not part of a column; a column block is a run of adjacent lines that have that column.
 */
export function tabwrite(text: string, options: { minWidth: number; padding: number }): string {
  const lines = text.split('\n').map((line) => line.split('\t'));
  const widths: number[] = [];
  let out = '';

  const writeLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const cells = lines[i] as string[];
      cells.forEach((cell, j) => {
        out += cell;
        const width = widths[j];
        if (width !== undefined && j < cells.length - 1)
          out += ' '.repeat(Math.max(0, width - textWidth(cell)));
      });
      if (i + 1 < lines.length) out += '\n';
    }
  };

  const format = (from: number, to: number) => {
    const column = widths.length;
    let line0 = from;
    for (let current = from; current < to; current++) {
      if (column >= (lines[current] as string[]).length - 1) continue;
      writeLines(line0, current);
      line0 = current;
      let width = options.minWidth;
      for (; current < to; current++) {
        const cells = lines[current] as string[];
        if (column >= cells.length - 1) break;
        width = Math.max(width, textWidth(cells[column] as string) + options.padding);
      }
      widths.push(width);
      format(line0, current);
      widths.pop();
      line0 = current;
      current--;
    }
    writeLines(line0, to);
  };

  format(0, lines.length);
  return out;
}

function textWidth(text: string): number {
  return [...text].length;
}
