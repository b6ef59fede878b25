/**
 * Text built from pieces, for the argument parser's text: fragments arrive as many small strings
 * and are read far less often than they arrive.
 */

/**
 * Text built from pieces: pushing is O(1), and reading joins only what came since the last
 * read, so a preview read once per frame of a long string costs O(total length) overall.
 *
 * @example
 * const log: TextLog = createTextLog();
 * log.push('{"q":');
 * log.push('"cats"}');
 * log.read() // '{"q":"cats"}'
 */
export interface TextLog {
  push(piece: string): void;
  /** The whole text so far. */
  read(): string;
  /** The whole text, and start again from empty. */
  take(): string;
}

/**
 * Create a {@link TextLog}: text built from pieces, joined lazily on read.
 *
 * @example
 * const log = createTextLog();
 * for (const delta of deltas) log.push(delta);
 * const text = log.read();
 */
export function createTextLog(): TextLog {
  return new PieceLog();
}

/** Pieces a text log holds before it joins them into its head. */
const CHUNK_PIECES = 1024;

class PieceLog implements TextLog {
  #head = '';
  // Reused, never replaced or truncated (setting an array's length is slow): `count` says how
  // much of it holds pieces of the current text.
  readonly #tail: string[] = [];
  #count = 0;

  push(piece: string): void {
    this.#tail[this.#count++] = piece;
    // Fold a long run of pieces into the head: the pieces array stays short (a large array of
    // young strings costs the garbage collector more than one joined chunk), and the head is a
    // rope of one node per chunk, not per piece.
    if (this.#count === CHUNK_PIECES) this.read();
  }

  read(): string {
    if (this.#count > 0) {
      this.#head = this.#joined();
      this.#count = 0;
    }
    return this.#head;
  }

  take(): string {
    const text = this.#joined();
    this.#head = '';
    this.#count = 0;
    return text;
  }

  #joined(): string {
    const head = this.#head;
    const tail = this.#tail;
    const count = this.#count;
    // Most strings are a few pieces long; a generic join costs more than concatenating them.
    switch (count) {
      case 0:
        return head;
      case 1:
        return head + (tail[0] as string);
      case 2:
        return head + (tail[0] as string) + (tail[1] as string);
      default:
        // Only the first `count` slots are this text's (see `tail`).
        return head + (tail.length === count ? tail : tail.slice(0, count)).join('');
    }
  }
}
