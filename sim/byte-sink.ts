/**
 * Bytes written into fixed chunks and handed on whole: a list page goes out as a few 256 KiB
 * buffers, its JSON never a string to concatenate, measure and encode again (that was a fifth of
 * a page's CPU).
 */
const CHUNK = 256 * 1024;

export class ByteSink {
  private chunk = Buffer.allocUnsafe(CHUNK);
  private used = 0;

  /** `flush` gets each chunk as it fills, to keep: the sink starts a new one. */
  constructor(private readonly flush: (bytes: Buffer) => void) {}

  bytes(bytes: Buffer): void {
    if (this.used + bytes.length > CHUNK) {
      this.drain();
      if (bytes.length > CHUNK) {
        this.flush(bytes);
        return;
      }
    }
    bytes.copy(this.chunk, this.used);
    this.used += bytes.length;
  }

  text(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + text.length * 3 > CHUNK) {
      this.drain();
      if (text.length * 3 > CHUNK) {
        this.flush(Buffer.from(text));
        return;
      }
    }
    this.used += this.chunk.write(text, this.used);
  }

  /** Hands on what was written since the last drain. */
  drain(): void {
    if (this.used === 0) return;
    this.flush(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafe(CHUNK);
    this.used = 0;
  }
}
