/**
 * The kit's colour scheme where an element is, as the page resolved it (docs/theming.md): the
 * frame's wrapper carries `toolgate-theme`, so the nearest `data-theme` sets its `color-scheme`;
 * without one it inherits the page's. `light dark` (the `system` theme, or a page that follows the
 * OS) is read through `prefers-color-scheme`. An app is told this theme, and told again when it
 * changes.
 */
import { useState, type RefObject } from 'react';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';

/** The scheme an element's used `color-scheme` resolves to. */
export function resolveColorScheme(element: Element): 'light' | 'dark' {
  const view = element.ownerDocument.defaultView;
  if (view === null) return 'light';
  const scheme = view.getComputedStyle(element).colorScheme.split(/\s+/);
  if (!scheme.includes('dark')) return 'light';
  if (!scheme.includes('light')) return 'dark';
  return typeof view.matchMedia === 'function' && view.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The resolved scheme of `ref`'s element, kept current as `data-theme`, classes or the OS change. */
export function useResolvedColorScheme(ref: RefObject<Element | null>): 'light' | 'dark' {
  const [scheme, setScheme] = useState<'light' | 'dark'>('light');
  useIsomorphicLayoutEffect(() => {
    const element = ref.current;
    const view = element?.ownerDocument.defaultView;
    if (element == null || view == null) return;
    const update = () => setScheme(resolveColorScheme(element));
    update();
    // Any ancestor may carry `data-theme`; the page's own scheme is set on <html> or <body>. Two
    // observers: observing one node again replaces the options an observer had for it.
    const themes = new view.MutationObserver(update);
    const page = new view.MutationObserver(update);
    const doc = element.ownerDocument;
    themes.observe(doc.documentElement, { attributes: true, attributeFilter: ['data-theme'], subtree: true });
    page.observe(doc.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
    if (doc.body !== null) page.observe(doc.body, { attributes: true, attributeFilter: ['class', 'style'] });
    // Some environments (jsdom, old embedded views) have no matchMedia: the OS's mode is then unknown.
    const media = typeof view.matchMedia === 'function' ? view.matchMedia('(prefers-color-scheme: dark)') : undefined;
    media?.addEventListener('change', update);
    return () => {
      themes.disconnect();
      page.disconnect();
      media?.removeEventListener('change', update);
    };
  }, [ref]);
  return scheme;
}
