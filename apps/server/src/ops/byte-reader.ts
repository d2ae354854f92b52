import { Readable } from 'node:stream';

/**
 * Reads a stream in pieces of known length: a line, then exactly n bytes, then the next n.
 * What is read past the end of one piece is kept for the next.
 */
export class ByteReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private pending: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.pending = this.pending.length ? Buffer.concat([this.pending, next.value]) : next.value;
    return true;
  }

  /** The text up to the next newline (without it), at most `max` bytes. */
  async line(max: number): Promise<string> {
    for (;;) {
      const at = this.pending.indexOf(10);
      if (at >= 0) {
        const text = this.pending.subarray(0, at).toString('utf8');
        this.pending = this.pending.subarray(at + 1);
        return text;
      }
      if (this.pending.length > max) throw new Error('line too long');
      if (!(await this.more())) throw new Error('unexpected end of file');
    }
  }

  /** The next `length` bytes as a stream; fails when the file ends first. */
  take(length: number): Readable {
    return Readable.from(this.pieces(length), { objectMode: false });
  }

  private async *pieces(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (this.pending.length === 0 && !(await this.more()))
        throw new Error('unexpected end of file');
      const piece = this.pending.subarray(0, Math.min(left, this.pending.length));
      this.pending = this.pending.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  /** True when nothing follows. */
  async atEnd(): Promise<boolean> {
    return this.pending.length === 0 && !(await this.more());
  }
}
