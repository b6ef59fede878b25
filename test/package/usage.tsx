// Type-checked twice: by the repository's tsc (against the sources) and by scripts/smoke.mjs in a
// fresh project against the installed package, with React 18.3's types and with React 19's, under
// NodeNext resolution (the strictest reading of the exports map).
import { useState } from 'react';
import {
  ConfirmToolDialog,
  ToolCallList,
  ToolgateProvider,
  useAppTool,
  useInterrupt,
  useToolCall,
  useToolCalls,
  useToolConfirmation,
  useToolStream,
  type ConfirmationOutcome,
  type ToolCall,
  type ToolSession,
} from 'toolgate';
import { createToolStreamStore, type ToolEvent, type ToolResult, type ToolRoom } from 'toolgate/core';
import { createArgumentsParser } from 'toolgate/json';
import { reduceToolEvent, initialToolStreamState } from 'toolgate/testing';
import { createScriptedRoom, createScriptedSession, toolEvents } from 'toolgate/testing';
import { createOpenAIChatAdapter } from 'toolgate/adapters';
import { connectReferenceSession } from 'toolgate/client';

export function Calls({ session }: { session: ToolSession }) {
  const { order, calls } = useToolStream(session);
  return (
    <ul>
      {order.map((id) => (
        <li key={id}>{calls[id]?.name}</li>
      ))}
    </ul>
  );
}

export function CallName({ callId }: { callId: string }) {
  const call: ToolCall | undefined = useToolCall(callId);
  const count: number = useToolCalls((s) => s.order.length);
  const interrupt = useInterrupt();
  return (
    <button type="button" onClick={() => interrupt(call?.turnId)}>
      {call?.name} of {count}
    </button>
  );
}

export function Approvals() {
  const confirmation = useToolConfirmation();
  return <p>{confirmation.waiting}</p>;
}

export function Clock() {
  useAppTool({
    name: 'clock',
    description: 'The time in the page',
    run: () => ({ now: Date.now() }),
  });
  return null;
}

export function Transfer({ room }: { room: ToolRoom }) {
  const [open, setOpen] = useState(true);
  const [outcome, setOutcome] = useState<ConfirmationOutcome | null>(null);
  return (
    <>
      <ConfirmToolDialog
        open={open}
        onOpenChange={setOpen}
        toolName="transfer"
        arguments={{ to: 'bob', amount: 5 }}
        room={room}
        descriptor={{ effect: 'write', risk: 'high', requiresConfirmation: true }}
        onResult={setOutcome}
      />
      {outcome?.status === 'done' && <p>{outcome.fingerprint}</p>}
    </>
  );
}

export function App({ session, room }: { session: ToolSession; room: ToolRoom }) {
  return (
    <ToolgateProvider session={session} room={room}>
      <ToolCallList />
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}

export function core(): string {
  const store = createToolStreamStore({ onError: (reason) => reason.length });
  store.getState().dispatch(toolEvents.start('c1', { name: 'search' }));
  const state = reduceToolEvent(initialToolStreamState(), { type: 'closed' } satisfies ToolEvent);
  const parser = createArgumentsParser();
  parser.push('{"q":"ca');
  const result: ToolResult = { ok: false, code: 'REJECTED' };
  const code: string = result.ok ? 'ok' : result.code;
  return `${state.closed} ${code} ${String(parser.value)}`;
}

export const factories = [createScriptedRoom, createScriptedSession, createOpenAIChatAdapter, connectReferenceSession] as const;
