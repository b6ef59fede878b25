import type { ComponentType, ReactElement } from 'react';

/**
 * A part of a component loaded on first use, as `React.lazy` does, with one difference: once
 * `preload()` has finished, the part renders at once, with no fallback for a frame. (`React.lazy`
 * suspends on its first render even when the module is already there.) Parts preload when what
 * needs them arrives (a request that can be edited), so a person's click never waits on a load
 * (see docs/architecture.md, "What loads when").
 * Render it inside `<Suspense>`. A part that failed to load throws its error on render, to the
 * app's error boundary; the next render after that tries to load it again.
 */
export interface LazyPart<P extends object> {
  Part: (props: P) => ReactElement;
  preload: () => Promise<unknown>;
}

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let Loaded: ComponentType<P> | undefined;
  let failure: { error: unknown } | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        failure = { error };
      },
    ));
  function Part(props: P): ReactElement {
    if (Loaded !== undefined) return <Loaded {...props} />;
    if (failure !== undefined) {
      const { error } = failure;
      failure = undefined;
      loading = undefined;
      throw error;
    }
    // The Suspense protocol of React 18 and 19: a thrown promise shows the fallback until it settles.
    throw preload();
  }
  return { Part, preload };
}
