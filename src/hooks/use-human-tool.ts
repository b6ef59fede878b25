import { useCallback, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { AppTool, AppToolContext, AppToolHost } from '../core/app-tools/app-tool-host';
import { createExternalStore, type ExternalStore } from '../core/external-store';
import { ToolError } from '../core/app-tools/tool-error';
import { useToolgateContext } from '../provider/context';
import { useAppTool, type AppToolView, type UseAppToolOptions } from './use-app-tool';

/**
 * What a person-answered tool's `render` is given for one call.
 *
 * @example
 * render: ({ args, respond, cancel }: PersonInputProps<{ question: string }, string>) => (
 *   <form onSubmit={(e) => { e.preventDefault(); respond(new FormData(e.currentTarget).get('a') as string) }}>…</form>
 * )
 */
export interface PersonInputProps<Args, Answer> {
  readonly callId: string;
  readonly toolName: string;
  /** The call's arguments (the validator's output when the tool has `validate`). */
  readonly args: Args;
  /** Answer the call: its output (JSON). Only the first answer counts. */
  respond(answer: Answer): void;
  /** Decline: the call answers `REJECTED` with the reason. */
  cancel(reason?: string): void;
  /** Aborts when the call is withdrawn (interrupt, time limit, the server ended it, the session closed). */
  readonly signal: AbortSignal;
}

/**
 * One call waiting for a person: what `<ToolCallInput callId>` renders inside the call's card.
 *
 * @example
 * const waiting: PersonRequest | null = useHumanTool(tool).request;
 */
export interface PersonRequest<Args = unknown, Answer = unknown> extends PersonInputProps<Args, Answer> {
  /** The tool's `render` of its latest render, for these props. */
  render(props: PersonInputProps<Args, Answer>): ReactNode;
}

/**
 * An app tool answered by a person: `run` shows `render` in the call's card and waits; the
 * person's answer is the output.
 *
 * @example
 * const pickSeat: HumanTool<{ flight: string }, { seat: string }> = { name: 'pick_seat', waitsForPerson: true, render: SeatPicker };
 */
export interface HumanTool<Args = Record<string, unknown>, Answer = unknown> extends Omit<AppTool<Args>, 'run'> {
  /** The input a person answers with (a form, a choice, a file picker), shown in the call's card. */
  render(props: PersonInputProps<Args, Answer>): ReactNode;
}

/**
 * What {@link useHumanTool} returns: the tool's live state and the call waiting for a person.
 *
 * @example
 * const { status, request }: HumanToolView = useHumanTool(tool);
 */
export interface HumanToolView<Args = Record<string, unknown>, Answer = unknown> extends AppToolView {
  /** The call waiting for a person's answer, or `null`. */
  readonly request: PersonRequest<Args, Answer> | null;
}

/* -------------------------------------------------------------- registry */

/**
 * The calls waiting for a person, per host (a host is one per session), on the kit's store core:
 * one listener policy for every store. The state is a map by call id, replaced on each change.
 */
type Waiting = ExternalStore<ReadonlyMap<string, PersonRequest>>;

const waitingByHost = new WeakMap<AppToolHost, Waiting>();

function waitingOf(host: AppToolHost): Waiting {
  let waiting = waitingByHost.get(host);
  if (!waiting) waitingByHost.set(host, (waiting = createExternalStore<ReadonlyMap<string, PersonRequest>>(new Map())));
  return waiting;
}

function change(waiting: Waiting, callId: string, request: PersonRequest | undefined): void {
  const next = new Map(waiting.getState());
  if (request) next.set(callId, request);
  else next.delete(callId);
  waiting.setState(next, true);
}

const noSubscription = () => () => {};
const nothing = () => undefined;

/**
 * The call `callId` when it waits for a person (a {@link useHumanTool} tool), else `undefined`.
 * `host` defaults to the provider's; outside a provider, nothing waits.
 *
 * @example
 * const request = usePersonRequest(callId);
 * return request ? <>{request.render(request)}</> : null;
 */
export function usePersonRequest(callId: string | null, host?: AppToolHost): PersonRequest | undefined {
  const context = useToolgateContext();
  const source = host ?? context?.host;
  const subscribe = useCallback((listener: () => void) => (source ? waitingOf(source).subscribe(listener) : () => {}), [source]);
  return useSyncExternalStore(
    source ? subscribe : noSubscription,
    source && callId !== null ? () => waitingByHost.get(source)?.getState().get(callId) : nothing,
    nothing,
  );
}

/**
 * Register an app tool that a person answers. Each call shows the tool's `render` (a form, a
 * choice, a file picker) inside its card (`<ToolCallCard>`, or `<ToolCallInput>` anywhere) and
 * resolves with what the person gives `respond` as the call's output; `cancel` answers `REJECTED`.
 *
 * - The signal is honoured: an interrupt, the server ending the call, the time limit or the
 *   session's close withdraws the form at once, and the call answers once (`INTERRUPTED`, …).
 * - The person's wait counts against the time limit unless the tool says `waitsForPerson: true`
 *   (then the host stops the call's clock while the form is shown).
 * - Everything else is `useAppTool`: one registration under StrictMode, the latest `render`,
 *   `validate` and `confirm` at call time, the tool's live state.
 *
 * @example
 * function SeatTool() {
 *   useHumanTool({
 *     name: 'pick_seat',
 *     description: 'Ask the traveller to pick a seat',
 *     validate: z.object({ flight: z.string(), seats: z.array(z.string()) }),
 *     waitsForPerson: true,
 *     render: ({ args, respond, cancel }) => <SeatPicker seats={args.seats} onPick={(seat) => respond({ seat })} onCancel={() => cancel()} />,
 *   });
 *   return null;
 * }
 */
export function useHumanTool<Args = Record<string, unknown>, Answer = unknown>(
  tool: HumanTool<Args, Answer>,
  options: UseAppToolOptions = {},
): HumanToolView<Args, Answer> {
  const context = useToolgateContext();
  const host = options.host ?? context?.host;
  // The latest render, read when the card renders, so a new closure never re-registers.
  const [latest] = useState(() => ({ render: tool.render }));
  latest.render = tool.render;
  const { render: _render, ...rest } = tool;
  const view = useAppTool<Args>(
    {
      ...rest,
      run: (args: Args, ctx: AppToolContext) => {
        const waiting = host && waitingOf(host);
        const { signal, callId } = ctx;
        return ctx.waitForPerson(
          new Promise<Answer>((resolve, reject) => {
            if (signal.aborted || !waiting) return reject(signal.reason ?? new Error('no host to show the input in'));
            const done = () => {
              signal.removeEventListener('abort', withdraw);
              if (waiting.getState().get(callId) === request) change(waiting, callId, undefined);
            };
            const withdraw = () => {
              done();
              reject(signal.reason);
            };
            const request: PersonRequest = Object.freeze({
              callId,
              toolName: tool.name,
              args,
              signal,
              respond: (answer: unknown) => {
                done();
                resolve(answer as Answer);
              },
              cancel: (reason?: string) => {
                done();
                reject(new ToolError('REJECTED', typeof reason === 'string' && reason !== '' ? reason : 'declined by the person'));
              },
              render: (props: PersonInputProps<unknown, unknown>) => latest.render(props as PersonInputProps<Args, Answer>),
            });
            signal.addEventListener('abort', withdraw, { once: true });
            change(waiting, callId, request);
          }),
        );
      },
    },
    options,
  );
  const request = usePersonRequest(view.callId, host);
  return { ...view, request: (request ?? null) as PersonRequest<Args, Answer> | null };
}
