/**
 * Helpers of the label tests: labels whose every string is a marker, the English words of the
 * defaults, and what a person can see or hear of a rendered tree.
 */
import { defaultLabels } from 'toolgate';

/** Every string of the labels replaced by a numbered marker (`⟦7⟧`: no letters), every function by one that returns its marker. */
export const marker = new Map<string, string>();
export function markers(value: unknown, key: string): unknown {
  const next = () => marker.get(key) ?? (marker.set(key, `⟦${marker.size}⟧`).get(key) as string);
  if (typeof value === 'function') return () => next();
  if (typeof value === 'string') return next();
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markers(v, `${key}.${k}`)]));
  return value;
}

/** The English words of the default labels, at every depth (strings, and what each function says around its arguments). */
export function englishWords(): Set<string> {
  const words = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === 'string') for (const word of value.match(/[A-Za-z]{3,}/g) ?? []) words.add(word.toLowerCase());
    else if (typeof value === 'function') collect((value as (...args: unknown[]) => unknown)(2, '0', { name: '0', status: '0', start: '0', writing: '0', running: '0' }));
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(defaultLabels);
  return words;
}

/** What a person can see or hear: text, accessible names and values. */
export function visibleText(root: HTMLElement): string {
  const attributes = [...root.querySelectorAll('*')].flatMap((el) => ['aria-label', 'aria-valuetext', 'title', 'alt', 'placeholder'].map((a) => el.getAttribute(a) ?? ''));
  return [root.textContent ?? '', ...attributes].join(' ');
}
