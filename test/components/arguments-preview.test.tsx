import { StrictMode } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ArgumentsPreview, type ArgumentsSchema } from 'toolgate';
import { parsePartialArguments } from 'toolgate/json';

const strict = (ui: React.ReactNode) => render(<StrictMode>{ui}</StrictMode>);

const emailSchema: ArgumentsSchema = {
  type: 'object',
  properties: {
    to: { type: 'string', title: 'Recipient' },
    subject: { type: 'string', title: 'Subject line', description: 'Shown in the inbox' },
    body: { type: 'string' },
  },
  required: ['to', 'subject', 'body'],
};

describe('ArgumentsPreview', () => {
  it('labels fields from the schema and shows required fields not yet written as pending', () => {
    const { rerender } = strict(<ArgumentsPreview value={{ to: 'ada@example.test' }} schema={emailSchema} />);
    expect(screen.getByText('Recipient')).toBeInTheDocument();
    expect(screen.getByText('ada@example.test')).toBeInTheDocument();
    const subject = screen.getByText('Subject line').closest('li') as HTMLElement;
    expect(subject.dataset.state).toBe('pending');
    expect(within(subject).getByText('Shown in the inbox')).toBeInTheDocument();
    expect(within(subject).getByText('pending')).toBeInTheDocument();
    expect((screen.getByText('body').closest('li') as HTMLElement).dataset.state).toBe('pending');

    rerender(
      <StrictMode>
        <ArgumentsPreview value={{ to: 'ada@example.test' }} schema={emailSchema} complete />
      </StrictMode>,
    );
    expect((screen.getByText('Subject line').closest('li') as HTMLElement).dataset.state).toBe('missing');
  });

  it('shows every required field as pending before any argument text arrives', () => {
    strict(<ArgumentsPreview value={undefined} schema={emailSchema} />);
    expect(screen.getAllByText('pending')).toHaveLength(3);
    strict(<ArgumentsPreview value={undefined} />);
    expect(screen.getByText('Waiting for arguments…')).toBeInTheDocument();
  });

  it('marks the field being written, including one whose value has not begun to show', () => {
    const partial = parsePartialArguments('{"to": "ada@example.test", "subject": "Quarterly re');
    const { container, rerender } = strict(<ArgumentsPreview value={partial.value} path={['subject']} schema={emailSchema} />);
    const writing = container.querySelectorAll('[data-writing]');
    expect(writing).toHaveLength(1);
    expect(writing[0]?.textContent).toBe('Quarterly re');
    expect(screen.getByText('(being written)')).toBeInTheDocument();

    // A number is shown only once complete: its key is marked as being written meanwhile.
    rerender(
      <StrictMode>
        <ArgumentsPreview value={{ to: 'x' }} path={['count']} />
      </StrictMode>,
    );
    const row = screen.getByText('count').closest('li') as HTMLElement;
    expect(row.dataset.state).toBe('writing');
    expect(row.querySelector('[data-writing]')).not.toBeNull();
  });

  it('collapses a 10,000-element array behind a button that expands it by keyboard, page by page', async () => {
    const user = userEvent.setup();
    const rows = Array.from({ length: 10_000 }, (_, i) => i);
    const { container } = strict(<ArgumentsPreview value={{ rows }} />);
    const toggle = screen.getByRole('button', { name: 'rows: 10,000 items' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(container.querySelectorAll('.toolgate-json-array > li')).toHaveLength(0);

    await user.tab();
    expect(toggle).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const items = () => container.querySelectorAll('.toolgate-json-array > li:not(.toolgate-json-more)');
    expect(items()).toHaveLength(100);

    await user.tab();
    expect(screen.getByRole('button', { name: 'Show 100 more (9,900 left)' })).toHaveFocus();
    await user.keyboard(' ');
    expect(items()).toHaveLength(200);

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  }, 30_000);

  it('collapses a long string, says how long it is, and shows it all on demand', async () => {
    const user = userEvent.setup();
    const text = 'é'.repeat(5000);
    strict(<ArgumentsPreview value={{ text }} stringLimit={100} />);
    const toggle = screen.getByRole('button', { name: 'text: 5,000 characters' });
    expect(screen.getByText(`${'é'.repeat(100)}…`)).toBeInTheDocument();
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'text: Show less' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('keeps a key named __proto__ as an ordinary field, even with a schema', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as unknown;
    strict(<ArgumentsPreview value={value} schema={{ properties: { ok: { title: 'Okay' } } }} />);
    expect(screen.getByText('__proto__')).toBeInTheDocument();
    expect(screen.getByText('Okay')).toBeInTheDocument();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('shows values of any type as text', () => {
    strict(<ArgumentsPreview value={{ a: null, b: false, c: 1.5e-7, d: [], e: {} }} />);
    for (const text of ['null', 'false', '1.5e-7', '[]', '{}']) expect(screen.getByText(text)).toBeInTheDocument();
  });
});
