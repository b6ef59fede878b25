import { StrictMode } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TerminalOutput } from 'toolgate/renderers';

const ESC = '\u001b';
const wrap = (ui: React.ReactElement) => render(<StrictMode>{ui}</StrictMode>);

describe('<TerminalOutput>', () => {
  it('renders colours as classes on text spans, and markup in the output as text', () => {
    const { container } = wrap(<TerminalOutput text={`${ESC}[31m<b>bold?</b>${ESC}[0m\n`} label="Output of make" />);
    const span = container.querySelector('.toolgate-ansi-fg-red');
    expect(span?.textContent).toBe('<b>bold?</b>');
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByRole('region', { name: 'Output of make' })).toHaveAttribute('tabindex', '0');
  });

  it('copies the output as plain text, without escape sequences', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    wrap(<TerminalOutput text={`${ESC}[32mok${ESC}[0m 1\nnext\n`} />);
    await user.click(screen.getByRole('button', { name: 'Copy output' }));
    expect(writeText).toHaveBeenCalledWith('ok 1\nnext');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('says its status once per change, not once per line', () => {
    const { rerender } = wrap(<TerminalOutput text="a\n" status="running" label="Output of npm test" />);
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent('Output of npm test: Running');
    rerender(<StrictMode><TerminalOutput text={'a\nb\nc\n'} status="running" label="Output of npm test" /></StrictMode>);
    expect(region).toHaveTextContent('Output of npm test: Running');
    rerender(<StrictMode><TerminalOutput text={'a\nb\nc\n'} status="failed" exitCode={2} label="Output of npm test" /></StrictMode>);
    expect(region).toHaveTextContent('Output of npm test: Failed with exit code 2');
  });

  it('puts only the lines in view in the page past windowAfter', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const { container } = wrap(<TerminalOutput text={text} windowAfter={1000} />);
    const shown = container.querySelectorAll('.toolgate-terminal-line').length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(200);
  });

  it('shows every line up to windowAfter', () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const { container } = wrap(<TerminalOutput text={text} />);
    expect(container.querySelectorAll('.toolgate-terminal-line')).toHaveLength(300);
  });

  it('says when there is no output yet', () => {
    wrap(<TerminalOutput text="" status="running" />);
    expect(screen.getByText('No output yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy output' })).toBeDisabled();
  });

  it('takes its words from labels', async () => {
    wrap(<TerminalOutput text="x\n" status="done" exitCode={0} labels={{ copy: 'Copier', status: () => 'Terminé' }} />);
    expect(screen.getByRole('button', { name: 'Copier' })).toBeInTheDocument();
    await act(async () => {});
    expect(screen.getByText('Terminé', { selector: '.toolgate-terminal-status' })).toBeInTheDocument();
  });
});
