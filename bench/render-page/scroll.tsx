/**
 * The long-session page of the rendering bench: 10,000 settled calls mounted in the kit's
 * `<ToolCallList>` (windowed past `windowAfter`, as an app uses it) or in a naive list that mounts
 * every call, then scrolled by a fixed step every animation frame. bench/render.ts reads the
 * frame work from the trace and the heap through CDP around it.
 */
import { createRoot, type Root } from 'react-dom/client';
import { ArgumentsPreview, ToolCallList, createToolStreamStore } from 'toolgate';
import type { ScrollOptions, ScrollResult, RenderKind } from './api';

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

const argumentsOf = (i: number) => ({ path: `notes/${i}.md`, lines: i % 40, tags: ['a', 'b'] });

function NaiveLongList({ count }: { count: number }) {
  return (
    <ol className="naive-list" style={{ maxHeight: '70vh', overflow: 'auto' }}>
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <article className="naive-card" data-call-id={`c${i}`} data-status="settled">
            <header>
              <strong>step_{i}</strong> <span>settled</span>
            </header>
            <ArgumentsPreview value={argumentsOf(i)} />
          </article>
        </li>
      ))}
    </ol>
  );
}

let mounted: { root: Root; container: HTMLElement } | undefined;

/** Mount `count` settled calls in `kind`'s list; resolves once it has painted. */
export async function mountLong(kind: RenderKind, options: ScrollOptions): Promise<{ mountMs: number }> {
  const container = document.createElement('div');
  container.id = `${kind}-long`;
  document.getElementById('root')?.append(container);
  const root = createRoot(container);
  const started = performance.now();
  if (kind === 'toolgate') {
    const store = createToolStreamStore();
    const { dispatch } = store.getState();
    for (let i = 0; i < options.calls; i++) {
      const callId = `c${i}`;
      dispatch({ type: 'tool.stream', phase: 'start', callId, turnId: `turn-${Math.floor(i / 100)}`, name: `step_${i}`, location: 'server', risk: 'low' });
      dispatch({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: argumentsOf(i) });
      dispatch({ type: 'tool.stream', phase: 'settled', callId, ok: true });
    }
    root.render(<ToolCallList store={store} announce={false} />);
  } else {
    root.render(<NaiveLongList count={options.calls} />);
  }
  await nextFrame();
  await nextFrame();
  mounted = { root, container };
  return { mountMs: performance.now() - started };
}

/** Scroll the mounted list by `step` pixels every frame for `frames` frames, then to the end. */
export async function scrollLong(options: ScrollOptions): Promise<ScrollResult> {
  if (!mounted) throw new Error('scrollLong: nothing mounted');
  const { container } = mounted;
  const box = container.querySelector<HTMLElement>('.toolgate-list-rows, .naive-list') as HTMLElement;
  for (let f = 0; f < options.frames; f++) {
    box.scrollTop += options.step;
    await nextFrame();
  }
  // Then to the end: the last call must be shown.
  for (let tries = 0; tries < 60 && !container.querySelector(`[data-call-id="c${options.calls - 1}"], [data-key="call:c${options.calls - 1}"]`); tries++) {
    box.scrollTop = box.scrollHeight;
    await nextFrame();
  }
  await nextFrame();
  return {
    scrolledPx: box.scrollTop,
    lastShown: container.querySelector(`[data-call-id="c${options.calls - 1}"], [data-key="call:c${options.calls - 1}"]`) !== null,
    rowsMounted: container.querySelectorAll('[role="row"], .naive-list > li').length,
    elements: container.querySelectorAll('*').length,
  };
}

export function unmountLong(): void {
  mounted?.root.unmount();
  mounted?.container.remove();
  mounted = undefined;
}
