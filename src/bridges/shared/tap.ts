/**
 * Read a stream on its way to its consumer: each value is seen before the consumer gets it, and
 * the stream's end or failure is seen once. Nothing is buffered beyond what the consumer pulls.
 */

/** What a tap is told. It must not throw (the bridges report their own problems). */
export interface StreamTap<T> {
  value(value: T): void;
  /** The stream ended normally. */
  end(): void;
  /** The stream failed (a lost connection, an error from the producer). */
  broke(error: unknown): void;
}

export function tapStream<T>(stream: ReadableStream<T>, tap: StreamTap<T>): ReadableStream<T> {
  const reader = stream.getReader();
  let over = false;
  return new ReadableStream<T>({
    async pull(controller) {
      let next: ReadableStreamReadResult<T>;
      try {
        next = await reader.read();
      } catch (error) {
        if (!over) {
          over = true;
          tap.broke(error);
        }
        controller.error(error);
        return;
      }
      if (next.done) {
        if (!over) {
          over = true;
          tap.end();
        }
        controller.close();
        return;
      }
      tap.value(next.value);
      controller.enqueue(next.value);
    },
    cancel(reason) {
      // The consumer stopped reading (the chat was stopped): its own stop path says what happens.
      over = true;
      return reader.cancel(reason);
    },
  });
}
