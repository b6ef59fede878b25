/**
 * An open container of the argument parser, and the previews it hands out while it is open.
 */
import { defineOwn } from './json-value';

type Maybe = unknown; // a value, or NOTHING when there is nothing to show yet

export interface Frame {
  isArray: boolean;
  /** Completed items (arrays) or entries (objects); frozen and handed out when the container closes. */
  items: unknown[];
  obj: Record<string, unknown>;
  /** The completed key whose value is being read (objects). */
  key: string | undefined;
  /** `obj` has an own `__proto__` key, which `Object.assign` would turn into a prototype. */
  protoKey: boolean;
  /** Bumped whenever a completed child is added, to know when `snap` is stale. */
  version: number;
  /** Distinct keys of `obj` (objects; arrays count `items`). */
  size: number;
  snap: unknown;
  snapVersion: number;
  snapChild: Maybe;
  /** How many entries `snap` shows once the container is wide (see `shownEntries`); -1 before. */
  snapShown: number;
}

/**
 * Up to this many entries an open container's preview shows every completed entry and the one
 * being written, rebuilt whenever it changes.
 */
export const EXACT_ENTRIES = 1024;

/**
 * How many of `n` completed entries a wide open container's preview shows: all of them below
 * `EXACT_ENTRIES`; beyond, `n` rounded down to a step of 1/8 of its power of two, and not the entry
 * being written. A frozen preview cannot share storage with the next one, so rebuilding a wide
 * container's copy on every read would cost its whole width per fragment (quadratic over the
 * stream). Rebuilt only at these steps, the copies cost about 24 pointers per entry over the whole
 * stream, whatever the reading: linear. The preview stays a function of the text alone (never of
 * when it was read), trails the text by less than 1/8 of the container, and never contradicts the
 * final value (it shows completed entries, as they are). Once the container closes it is whole.
 */
export function shownEntries(n: number): number {
  if (n < EXACT_ENTRIES) return n;
  const step = 1 << (31 - Math.clz32(n) - 3);
  return n - (n & (step - 1));
}

/**
 * An empty array that holds any value as it is: an array V8 first fills with numbers alone keeps
 * them unboxed, and then boxes every one each time it is frozen; this one boxes each once, as it
 * is pushed, so the copies and the final freeze only copy pointers.
 */
export function anyElements(): unknown[] {
  const items: unknown[] = [null];
  items.pop();
  return items;
}

/** The first `shown` completed entries of a wide open container, frozen. */
export function wideSnapshot(f: Frame, shown: number): unknown {
  if (f.isArray) return Object.freeze(f.items.slice(0, shown));
  const o: Record<string, unknown> = {};
  const keys = Object.keys(f.obj);
  for (let i = 0; i < shown; i++) defineOwn(o, keys[i] as string, f.obj[keys[i] as string]);
  return Object.freeze(o);
}
