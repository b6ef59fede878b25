import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TanStackDevtoolsReactPlugin } from '@tanstack/react-devtools';
import { createToolgate } from 'toolgate/core';
import { createAuditLog } from 'toolgate/audit';
import { ToolgateDevtools, createDevtoolsRecorder, toRecording, toolgateDevtoolsPlugin } from 'toolgate/devtools';
import { callEvents, createScriptedSession, toolEvents as e, type ToolgateRecording } from 'toolgate/testing';

function live() {
  const client = createToolgate();
  const recorder = createDevtoolsRecorder(client, { scheduleFrame: (flush) => queueMicrotask(flush) });
  const session = createScriptedSession();
  client.connect(session);
  return { client, recorder, session };
}

describe('<ToolgateDevtools>', () => {
  it('lists the events, shows a refused frame’s reason, filters by call and steps through a call’s history with the keyboard', async () => {
    const user = userEvent.setup();
    const { client, recorder, session } = live();
    render(<ToolgateDevtools client={client} recorder={recorder} />);
    act(() => {
      for (const event of callEvents('c1', { name: 'search', turnId: 't1', arguments: { q: 'cats' } })) session.emit(event);
      session.emit(e.start('c2', { name: 'fetch', turnId: 't2' }));
      session.emit({ type: 'tool.stream', phase: 'progress', callId: 'ghost' });
    });
    const events = await screen.findByRole('list', { name: 'Events' });
    await waitFor(() => expect(within(events).getByText(/ghost · rejected · refused: .*no call 'ghost'/)).toBeTruthy());

    await user.selectOptions(screen.getByLabelText('Call'), 'c2');
    expect(within(events).getAllByRole('button')).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('Call'), 'c1');
    const rows = within(events).getAllByRole('button');
    await user.click(rows[0] as HTMLElement);
    const history = screen.getByRole('region', { name: 'Call history' });
    expect(within(history).getByText(/^Step 1 of \d+: tool.stream\/start/)).toBeTruthy();
    expect(within(history).getByLabelText('State after this step').textContent).toContain('"status": "pending"');
    const stepper = within(history).getByRole('group', { name: /Steps of call c1/ });
    stepper.focus();
    await user.keyboard('{End}');
    expect(within(history).getByText(/: tool.stream\/settled$/)).toBeTruthy();
    expect(within(history).getByLabelText('State after this step').textContent).toContain('"status": "settled"');
    await user.keyboard('{ArrowLeft}');
    expect(within(history).getByLabelText('State after this step').textContent).toContain('"status": "issued"');
    await user.keyboard('{Home}');
    expect(within(history).getByText(/^Step 1 of/)).toBeTruthy();
  });

  it('shows a call’s approval, the answer sent and its audit records with the chain verified', async () => {
    const user = userEvent.setup();
    const { client, recorder, session } = live();
    const auditLog = createAuditLog();
    render(<ToolgateDevtools client={client} recorder={recorder} auditLog={auditLog} />);
    act(() => {
      session.emit(e.start('c1', { name: 'delete_file', turnId: 't1' }));
      session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', name: 'delete_file', arguments: { path: '/tmp/a' }, risk: 'high' });
    });
    await waitFor(() => expect(client.approvals.getState().status).toBe('reviewing'));
    act(() => void client.approvals.deny('not that file'));
    await session.waitForMessage('tool.approval');
    await auditLog.append({ type: 'requested', callId: 'c1', toolName: 'delete_file', definitionFingerprint: null, arguments: { path: '/tmp/a' } });
    await auditLog.append({ type: 'decided', callId: 'c1', kind: 'deny', by: 'person', reason: 'not that file' });
    const events = await screen.findByRole('list', { name: 'Events' });
    await user.click(await within(events).findByText(/answer\/tool.approval c1/));
    const approval = screen.getByRole('region', { name: 'Approval' });
    expect(approval.textContent).toContain('denied');
    expect(approval.textContent).toContain('not that file');
    expect(approval.textContent).toMatch(/Answer sent\s*deny/);
    const audit = screen.getByRole('region', { name: 'Audit records' });
    await waitFor(() => expect(within(audit).getByRole('status').textContent).toBe('Chain verified: 2 records.'));
    expect(audit.textContent).toContain('decided deny by person');
  });

  it('exports the recording it shows, imports one, and says why a file is not a recording', async () => {
    const { client, recorder, session } = live();
    const exported: ToolgateRecording[] = [];
    render(<ToolgateDevtools client={client} recorder={recorder} onExport={(recording) => exported.push(recording)} />);
    act(() => {
      for (const event of callEvents('c1', { name: 'search', turnId: 't1', arguments: {} })) session.emit(event);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Export recording' }));
    expect(exported).toHaveLength(1);
    expect(exported[0]?.events.filter((event) => (event as { type?: string }).type === 'tool.stream')).toHaveLength(4);

    const input = screen.getByLabelText('Import recording') as HTMLInputElement;
    const recording = toRecording(recorder.getState().entries);
    await userEvent.upload(input, new File([JSON.stringify(recording)], 'bug-42.json', { type: 'application/json' }));
    await screen.findByText(/Showing bug-42.json/);
    await userEvent.upload(input, new File(['{"format":"other"}'], 'nope.json', { type: 'application/json' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/nope.json: not a toolgate recording/);
  });

  it('is a TanStack Devtools plugin of the shape its package takes', () => {
    const { client } = live();
    const plugin = toolgateDevtoolsPlugin(client, { name: 'Tools' });
    const typed: TanStackDevtoolsReactPlugin = plugin;
    expect(typed).toMatchObject({ id: 'toolgate', name: 'Tools' });
    render(plugin.render(document.createElement('div'), { theme: 'dark' }));
    const heading = screen.getByRole('heading', { name: 'Toolgate devtools' });
    // The panel takes the shell's theme (TanStack's default is dark, whatever the page's).
    expect(heading.closest('section')?.getAttribute('data-theme')).toBe('dark');
  });

  it('keeps the theme it was given over the shell\'s', () => {
    const { client } = live();
    render(toolgateDevtoolsPlugin(client, { theme: 'light' }).render(document.createElement('div'), { theme: 'dark' }));
    expect(screen.getByRole('heading', { name: 'Toolgate devtools' }).closest('section')?.getAttribute('data-theme')).toBe('light');
  });
});
