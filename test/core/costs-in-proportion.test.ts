/**
 * Costs in proportion to the work (the speed itself is measured by `npm run bench`, section
 * growth): what the rules behind it promise, checked for what they show.
 */
import { describe, expect, it } from 'vitest';
import { type ToolStreamState } from 'toolgate/core';
import { createArgumentsParser } from 'toolgate/json';
import { initialToolStreamState, reduceToolEvent } from 'toolgate/testing';
import { toolEvents as e } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';

const wide = (n: number) => `{"values":[${Array.from({ length: n }, (_, i) => i).join(',')}]}`;

describe('the preview of a wide open container', () => {
  it('shows every entry and the one being written below 1,024 entries', () => {
    const parser = createArgumentsParser();
    parser.push('{"values":[' + Array.from({ length: 1_000 }, (_, i) => i).join(',') + ',"wri');
    const values = (parser.value as { values: unknown[] }).values;
    expect(values).toHaveLength(1_001);
    expect(values.at(-1)).toBe('wri');
  });

  it('shows the completed entries at steps of 1/8 of its width beyond, never contradicting the final value', () => {
    const text = wide(5_000);
    const parser = createArgumentsParser();
    const final = JSON.parse(text) as { values: number[] };
    const seen = new Set<number>();
    for (let i = 0; i < text.length; i += 4) {
      parser.append(text.slice(i, i + 4));
      const shown = (parser.value as { values?: number[] } | undefined)?.values;
      if (shown === undefined) continue;
      seen.add(shown.length);
      // A prefix of the final array, exactly: nothing the final value contradicts.
      if (shown.length > 0 && (shown.at(-1) !== final.values[shown.length - 1] || shown[0] !== 0)) expect(shown).toEqual(final.values.slice(0, shown.length));
    }
    // The open array's steps (the whole array shows once it closes).
    const steps = [...seen].filter((n) => n >= 1_024 && n < final.values.length);
    // 1,024 to 2,047 in steps of 128, 2,048 to 4,095 in steps of 256, then steps of 512: few rebuilds.
    expect(steps.every((n) => n % (1 << (31 - Math.clz32(n) - 3)) === 0)).toBe(true);
    expect(steps.length).toBeLessThan(30);
    expect(parser.value).toEqual(final);
  });

  it('is a function of the text alone: read after every fragment or once, the same preview', () => {
    const text = wide(3_000).slice(0, -300);
    const often = createArgumentsParser();
    for (let i = 0; i < text.length; i += 4) {
      often.append(text.slice(i, i + 4));
      void often.value;
    }
    const once = createArgumentsParser();
    once.append(text);
    expect(often.value).toEqual(once.value);
  });

  it('does the same for a wide open object, by its keys in order', () => {
    const entries = Array.from({ length: 3_000 }, (_, i) => `"k${i}":${i}`);
    const parser = createArgumentsParser();
    parser.push(`{${entries.join(',')},"open":"wri`);
    const shown = Object.keys(parser.value as object);
    // 3,000 keys: steps of 256 (1/8 of 2,048), so 2,816 shown, and not the key being written.
    expect(shown).toHaveLength(2_816);
    expect(shown.at(-1)).toBe('k2815');
  });
});

describe('a long session', () => {
  it('keeps every call of 5,000 in place and in order, and an older state reduced again branches without touching the newer one', () => {
    let state: ToolStreamState = initialToolStreamState();
    const states: ToolStreamState[] = [];
    for (let i = 0; i < 5_000; i++) {
      state = reduceToolEvent(state, e.start(`c${i}`, { name: `t${i}` }));
      if (i === 1_500) states.push(state);
    }
    expect(state.order).toHaveLength(5_000);
    expect(state.order[4_321]).toBe('c4321');
    expect(callOf(state, 'c4999')?.name).toBe('t4999');
    expect(callOf(state, 'c37')?.name).toBe('t37');
    const older = states[0] as ToolStreamState;
    const branch = reduceToolEvent(older, e.start('other'));
    expect(branch.order).toHaveLength(1_502);
    expect(branch.order.at(-1)).toBe('other');
    expect(callOf(branch, 'c1501')).toBeUndefined();
    expect(callOf(state, 'other')).toBeUndefined();
    expect(callOf(state, 'c1501')?.name).toBe('t1501');
    expect(older.order).toHaveLength(1_501);
  });
});
