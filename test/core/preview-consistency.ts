/** Helpers for parser and reducer tests: what it means for a preview not to contradict a value. */
import { isDeepStrictEqual } from 'node:util';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * True when `preview` could grow into `final`: strings are prefixes, scalars equal, containers
 * hold a subset whose completed members are equal and whose one open member is consistent.
 */
export function isConsistentPreview(preview: unknown, final: unknown): boolean {
  if (preview === undefined) return true;
  if (typeof preview === 'string') return typeof final === 'string' && final.startsWith(preview);
  if (Array.isArray(preview)) {
    if (!Array.isArray(final) || preview.length > final.length) return false;
    return preview.every((item, i) =>
      i === preview.length - 1 ? isConsistentPreview(item, final[i]) : isDeepStrictEqual(item, final[i]),
    );
  }
  if (isPlainObject(preview)) {
    if (!isPlainObject(final)) return false;
    let open = 0;
    for (const key of Object.keys(preview)) {
      if (!Object.prototype.hasOwnProperty.call(final, key)) return false;
      if (isDeepStrictEqual(preview[key], final[key])) continue;
      if (!isConsistentPreview(preview[key], final[key])) return false;
      open++;
    }
    return open <= 1;
  }
  return Object.is(preview, final) || (preview === 0 && final === 0);
}

/** Cut `text` at the given offsets. */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}
