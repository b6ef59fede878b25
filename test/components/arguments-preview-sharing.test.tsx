import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ArgumentsPreview, type ArgumentsSchema } from 'toolgate';
import { createArgumentsParser } from 'toolgate/json';

/**
 * A schema that notes which field it is asked about: the preview asks once for each row it
 * renders (for the field's title and for the child's own schema), so the log says which rows
 * a snapshot rendered.
 */
function loggingSchema(log: string[]): ArgumentsSchema {
  const record: ArgumentsSchema = {
    properties: new Proxy({ email: { title: 'Email' }, tags: { items: {} } } as Record<string, ArgumentsSchema>, {
      get: (target, key) => {
        if (typeof key === 'string') log.push(`record.${key}`);
        return target[key as string];
      },
    }),
  };
  const items = new Proxy(record, {
    get: (target, key) => target[key as keyof ArgumentsSchema],
  });
  return {
    properties: new Proxy({ path: { title: 'Path' }, records: { items } } as Record<string, ArgumentsSchema>, {
      get: (target, key) => {
        if (typeof key === 'string') log.push(key);
        return target[key as string];
      },
    }),
  };
}

describe('ArgumentsPreview and the parser’s shared snapshots', () => {
  it('renders only the branch a fragment lands in: rows of closed siblings are not rendered again', () => {
    const log: string[] = [];
    const schema = loggingSchema(log);
    const parser = createArgumentsParser();
    const records = Array.from({ length: 20 }, (_, i) => JSON.stringify({ email: `u${i}@example.test`, tags: ['a', 'b'] })).join(',');
    parser.push(`{"path":"a.json","records":[${records},{"email":"u20@exa`);
    const { rerender, container } = render(<ArgumentsPreview value={parser.value} path={parser.path} schema={schema} />);
    expect(container.textContent).toContain('u19@example.test');
    log.length = 0;

    parser.push('mple.te');
    rerender(<ArgumentsPreview value={parser.value} path={parser.path} schema={schema} />);
    expect(container.textContent).toContain('u20@example.te');
    // The path to the string being written: the root's `records` row, then the open record's
    // `email` row. Not `path`, not the 20 closed records (nor their fields).
    expect(log.filter((key) => key === 'path')).toEqual([]);
    expect(log.filter((key) => key === 'record.email').length).toBeLessThanOrEqual(2);
    expect(log.length).toBeLessThanOrEqual(6);
  });

  it('shows a closed sibling’s new value when a snapshot replaces it (a reset, not a fragment)', () => {
    const { rerender, container } = render(<ArgumentsPreview value={{ a: 'one', b: 'two' }} path={['b']} />);
    expect(container.textContent).toContain('one');
    rerender(<ArgumentsPreview value={{ a: 'uno', b: 'two' }} path={['b']} />);
    expect(container.textContent).toContain('uno');
    expect(container.textContent).not.toContain('one');
  });
});
