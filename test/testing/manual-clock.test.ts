import { describe, expect, it } from 'vitest';
import { createManualClock } from 'toolgate/testing';

describe('createManualClock', () => {
  it('fires timers in due order, equal times in the order they were set, and moves now', async () => {
    const clock = createManualClock({ start: 100 });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 20);
    await clock.advance(15);
    expect(fired).toEqual(['a@110']);
    expect(clock.now()).toBe(115);
    await clock.advance(100);
    expect(fired).toEqual(['a@110', 'b@120', 'c@120']);
    expect(clock.now()).toBe(215);
  });

  it('never fires a cleared timer', async () => {
    const clock = createManualClock();
    let fired = false;
    const handle = clock.setTimeout(() => (fired = true), 5);
    clock.clearTimeout(handle);
    await clock.advance(10);
    expect(fired).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('lets the promise work a timer starts settle before the next timer fires', async () => {
    const clock = createManualClock();
    const log: string[] = [];
    clock.setTimeout(async () => {
      await Promise.resolve();
      await Promise.resolve();
      log.push('first done');
      clock.setTimeout(() => log.push('chained'), 0);
    }, 1);
    clock.setTimeout(() => log.push('second'), 1);
    await clock.advance(1);
    expect(log).toEqual(['first done', 'second', 'chained']);
  });

  it('runs every timer, including ones set while running, with runAll', async () => {
    const clock = createManualClock();
    let count = 0;
    const tick = () => {
      count += 1;
      if (count < 5) clock.setTimeout(tick, 1000);
    };
    clock.setTimeout(tick, 1000);
    await expect(clock.runAll()).resolves.toBe(5);
    expect(clock.now()).toBe(5000);
  });
});
