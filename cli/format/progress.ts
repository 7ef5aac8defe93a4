/** A progress line for agent fan-outs: redrawn in place on a terminal, printed once per step otherwise. */
export function progressLine(stream: NodeJS.WriteStream) {
  let shown = false;
  return {
    update(where: string, done: number, total: number, label: string): void {
      if (stream.isTTY) {
        stream.write(`\r  ${where}: ${done}/${total} ${label}\u001b[K`);
        shown = true;
      } else if (done === total) {
        stream.write(`  ${where}: ${done}/${total} ${label}\n`);
      }
    },
    done(): void {
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
