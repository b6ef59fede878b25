/**
 * The one vocabulary every adapter ends calls with (src/adapters/call-book.ts): the end of a
 * call's own arguments, and the four boundaries `finished`, `error`, `aborted`, `ended`.
 */
import { describe, expect, it } from 'vitest';
import type { ToolStreamEvent } from 'toolgate/core';
import { CallBook } from '../../src/adapters/call-book';

const phases = (events: ToolStreamEvent[]) => events.map((e) => `${e.callId}:${e.phase}`);

/** A book with a call whose arguments are open (`open`), one issued to the page (`page`), and one issued whose outcome the stream carries (`hosted`). */
function setup() {
  const book = new CallBook('Acme', {});
  const open = book.start('open', 'f', 't1');
  book.delta(open, '{"a":');
  const page = book.start('page', 'f', 't1');
  book.complete(page, {});
  const hosted = book.start('hosted', 'search', 't1', { location: 'server', awaitsOutcome: true });
  book.complete(hosted, { q: 'x' });
  book.drain();
  return { book, open, page, hosted };
}

describe('ending a call’s own arguments', () => {
  it('completes with the parsed text, or fails with the reason when the text is not complete JSON', () => {
    const book = new CallBook('Acme', {});
    const good = book.start('good', 'f', 't');
    book.delta(good, '{"a":1}');
    book.endArguments(good, 'cut', 'the block ended');
    const bad = book.start('bad', 'f', 't');
    book.delta(bad, '{"a":');
    book.endArguments(bad, 'cut', 'the block ended');
    const events = book.drain();
    expect(events).toContainEqual({ type: 'tool.stream', phase: 'arguments-complete', callId: 'good', arguments: { a: 1 } });
    expect(events.at(-1)).toMatchObject({ phase: 'failed', callId: 'bad' });
    expect((events.at(-1) as { message: string }).message).toMatch(/^Acme: the block ended; the arguments of f are incomplete: /);
  });

  it('reads an empty text as no arguments only where the provider said the arguments are done (normal)', () => {
    const book = new CallBook('Acme', {});
    book.endArguments(book.start('normal', 'f', 't'), 'normal', 'done');
    book.endArguments(book.start('cut', 'f', 't'), 'cut', 'the stream ended');
    const events = book.drain();
    expect(events).toContainEqual({ type: 'tool.stream', phase: 'arguments-complete', callId: 'normal', arguments: {} });
    expect(events.at(-1)).toMatchObject({ phase: 'failed', callId: 'cut', message: expect.stringMatching(/no argument text arrived/) });
  });

  it('takes the whole input given at the start when no text streamed, even when cut', () => {
    const book = new CallBook('Acme', {});
    book.endArguments(book.start('whole', 'f', 't', { wholeInput: { n: 1 } }), 'cut', 'the message stopped');
    expect(book.drain().at(-1)).toEqual({ type: 'tool.stream', phase: 'arguments-complete', callId: 'whole', arguments: { n: 1 } });
  });

  it('ends a call once: a second end, a late fragment or a late outcome say nothing', () => {
    const book = new CallBook('Acme', {});
    const call = book.start('c', 'f', 't');
    book.delta(call, '{');
    book.endArguments(call, 'cut', 'cut');
    book.endArguments(call, 'normal', 'again');
    book.delta(call, '}');
    book.complete(call, {});
    book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: 'c', ok: true });
    book.cancel(call);
    expect(phases(book.drain())).toEqual(['c:start', 'c:arguments-delta', 'c:failed']);
  });
});

describe('the boundaries', () => {
  it('finished: open arguments end from their text; issued calls stay issued', () => {
    const { book } = setup();
    book.end({ kind: 'finished', why: 'the message stopped' });
    expect(phases(book.drain())).toEqual(['open:failed']);
  });

  it('error: open arguments fail with the stream’s message, issued calls in scope are cancelled', () => {
    const { book } = setup();
    book.end({ kind: 'error', message: 'overloaded' });
    const events = book.drain();
    expect(phases(events)).toEqual(['open:failed', 'page:cancelled', 'hosted:cancelled']);
    expect(events[0]).toMatchObject({ message: 'Acme: the stream reported an error: overloaded' });
  });

  it('error keeps to its scope: calls of an earlier response keep what they showed', () => {
    const { book } = setup();
    const later = book.start('later', 'f', 't2');
    book.drain();
    book.end({ kind: 'error', message: 'boom' }, (call) => call.turnId === later.turnId);
    expect(phases(book.drain())).toEqual(['later:failed']);
  });

  it('aborted: every call not over is cancelled', () => {
    const { book } = setup();
    book.end({ kind: 'aborted' });
    expect(phases(book.drain())).toEqual(['open:cancelled', 'page:cancelled', 'hosted:cancelled']);
  });

  it('ended: open arguments end cut, a call awaiting its outcome on the stream is cancelled, one issued to the page stays', () => {
    const { book } = setup();
    book.end({ kind: 'ended', why: 'the stream ended' });
    expect(phases(book.drain())).toEqual(['open:failed', 'hosted:cancelled']);
    // Nothing is left to end.
    book.end({ kind: 'aborted' });
    expect(phases(book.drain())).toEqual(['page:cancelled']);
  });

  it('an outcome ends a call for good: later boundaries leave it', () => {
    const { book, hosted } = setup();
    book.outcome(hosted, { type: 'tool.stream', phase: 'settled', callId: 'hosted', ok: true });
    book.drain();
    book.end({ kind: 'aborted' });
    expect(phases(book.drain())).toEqual(['open:cancelled', 'page:cancelled']);
  });
});
