import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type {
  AppCallState,
  AppTool,
  AppToolContext,
  AppToolHost,
  AppToolHostState,
  AppToolState,
  AppToolStatus,
} from '../core/app-tools/app-tool-host';
import type { JsonValue } from '../core/json/json-value';
import type { StandardSchemaV1 } from '../core/json/standard-schema';
import type { ToolResult } from '../core/wire';
import { useAppToolHost } from '../provider/context';
import { useStoreSelector } from './use-store-selector';

/**
 * Options of {@link useAppTool}.
 *
 * @example
 * useAppTool(setTitle, { host }); // a host created outside React, without a provider
 */
export interface UseAppToolOptions {
  /** The host to register with. Default: the one of the nearest `<ToolgateProvider>`. */
  host?: AppToolHost;
}

/**
 * A tool's live state for UI, as {@link useAppTool} returns it. A new object only when this
 * tool's state changed; everything resets when the session closes.
 *
 * @example
 * const { status, queued, callId, progress, awaitingApproval, lastResult } = useAppTool(insertText);
 * // status 'running', callId 'c7', progress { done: 2, total: 5 }, queued 1
 */
export interface AppToolView {
  readonly name: string;
  /**
   * While one of its calls holds the one-at-a-time slot: `awaiting-approval` while that call waits
   * for a person (never `running` then: nothing runs until they approve), else `running`
   * (checking arguments, or running).
   */
  readonly status: AppToolStatus;
  /** Calls of this tool waiting for their turn. */
  readonly queued: number;
  /** The call holding the slot, with its own status (`validating | awaiting-approval | running`). */
  readonly current: AppCallState | null;
  /** The current call's id. */
  readonly callId: string | null;
  /** The current call's turn. */
  readonly turnId: string | null;
  /**
   * What the current call runs with (a frozen JSON snapshot): the arguments as they arrived while
   * it is checked, then the validator's output, the very object the person reviews and `run` receives.
   */
  readonly arguments: JsonValue | undefined;
  /** The latest value the current run passed to `ctx.emit`. */
  readonly progress: unknown;
  /** True while the current call waits for the user's approval (`confirm`). */
  readonly awaitingApproval: boolean;
  /** The result of this tool's latest finished call. */
  readonly lastResult: { readonly callId: string; readonly result: ToolResult } | null;
  /** True once the host holds this tool (after the first commit). */
  readonly registered: boolean;
  /** True once the session closed: the host refuses calls, and a new session brings a new host. */
  readonly closed: boolean;
}

/** The wrapper passes validation through when the tool's current `validate` went away. */
type AnyValidate = StandardSchemaV1<unknown, unknown>;

interface Latest {
  tool: AppTool<unknown>;
}

/**
 * What decides a re-registration: `name`, `description`, `parameters`, `timeoutMs`, and whether
 * the tool has `validate` and `waitsForPerson`. `parameters` compare by their JSON text, so a schema written inline
 * (a new object each render) does not re-register on every render, while a changed schema does and
 * is announced with `tools.update`. `run`, `validate`, `confirm` and `editable` are read from the latest
 * render at call time instead, so changing them never re-registers.
 */
function registrationKey(tool: AppTool<unknown>, parametersKey: string): string {
  return JSON.stringify([tool.name, tool.description ?? null, parametersKey, tool.timeoutMs ?? null, tool.validate !== undefined, tool.waitsForPerson === true]);
}

let unserializable = 0;
const unserializableKeys = new WeakMap<object, string>();

/** The JSON text of a schema; a schema that is not JSON keys by identity (`register` then throws a clear error). */
function parametersKeyOf(parameters: unknown): string {
  if (parameters === undefined) return '';
  try {
    return JSON.stringify(parameters) ?? '';
  } catch {
    if (typeof parameters !== 'object' || parameters === null) return String(parameters);
    let key = unserializableKeys.get(parameters);
    if (key === undefined) {
      key = `#unserializable-${++unserializable}`;
      unserializableKeys.set(parameters, key);
    }
    return key;
  }
}

// Layout effects run before passive ones, so the registration effect (and any call after the
// commit) sees the latest tool. On a server neither runs; a plain effect avoids React 18's warning.
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);

interface Selected {
  readonly tool: AppToolState | null;
  readonly closed: boolean;
}

const sameSelected = (a: Selected, b: Selected): boolean => a.tool === b.tool && a.closed === b.closed;

function viewOf(name: string, tool: AppToolState | null, closed: boolean): AppToolView {
  const current = tool?.current ?? null;
  return Object.freeze({
    name,
    status: tool?.status ?? 'idle',
    queued: tool?.queued ?? 0,
    current,
    callId: current?.callId ?? null,
    turnId: current?.turnId ?? null,
    arguments: current?.arguments,
    progress: current?.progress,
    awaitingApproval: current?.status === 'awaiting-approval',
    lastResult: tool?.lastResult ?? null,
    registered: tool !== null,
    closed,
  });
}

/**
 * Register an app tool for as long as the component is mounted, and read its live state.
 *
 * - Registers on mount and unregisters on unmount. StrictMode's unmount and remount keep one
 *   registration: the host defers an unregister by a microtask, and the remount takes it over,
 *   so a call that arrives in between is not lost and `tools.update` announces nothing new.
 * - Every call runs the `run`, `validate`, `confirm` and `editable` of the latest render, without
 *   re-registering. A change of `name`, `description`, `parameters` (compared by their JSON
 *   text), `timeoutMs` or of having a `validate` at all re-registers (and announces the new
 *   declaration); the tool keeps its state across that.
 * - Re-renders only when this tool's state changes, not when other tools run.
 * - Everything resets when the session closes; a new session brings a new host through the
 *   provider, and the tool registers there.
 *
 * The argument type comes from `validate` (zod, valibot, ArkType) when there is one.
 *
 * @example
 * function TitleTool() {
 *   const { status, progress, lastResult } = useAppTool({
 *     name: 'set_title',
 *     description: 'Set the document title',
 *     validate: z.object({ title: z.string().min(1) }),
 *     async run({ title }, { signal, callId }) {
 *       await saveDraft();
 *       if (signal.aborted) return; // interrupted while saving: change nothing
 *       return editor.setTitle(title, { operationId: callId });
 *     },
 *   });
 *   return <p>{status === 'running' ? 'Setting the title…' : lastResult?.result.ok ? 'Title set' : null}</p>;
 * }
 */
export function useAppTool<Args = Record<string, unknown>>(tool: AppTool<Args>, options: UseAppToolOptions = {}): AppToolView {
  const host = useAppToolHost(options.host);
  const [latest] = useState<Latest>(() => ({ tool: tool as AppTool<unknown> }));
  useIsomorphicLayoutEffect(() => {
    latest.tool = tool as AppTool<unknown>;
  });

  const { name } = tool;
  const parametersKey = parametersKeyOf(tool.parameters);
  const key = registrationKey(tool as AppTool<unknown>, parametersKey);

  useEffect(() => {
    // Built from the latest tool at (re-)registration; only the fields in `key` are read here.
    const now = latest.tool;
    const stable: AppTool<unknown> = {
      name: now.name,
      run: (args: unknown, ctx: AppToolContext) => latest.tool.run(args, ctx),
      // Always a function, so a `confirm` added or removed later still takes effect.
      confirm: (args: unknown) => {
        const confirm = latest.tool.confirm;
        return typeof confirm === 'function' ? confirm(args) === true : confirm === true;
      },
    };
    if (now.description !== undefined) stable.description = now.description;
    if (now.parameters !== undefined) stable.parameters = now.parameters;
    if (now.timeoutMs !== undefined) stable.timeoutMs = now.timeoutMs;
    if (now.waitsForPerson === true) stable.waitsForPerson = true;
    // Read from the latest render when a call asks (like `confirm`); the host reads it once per call.
    Object.defineProperty(stable, 'editable', { enumerable: true, get: () => latest.tool.editable === true });
    // The answer's form a person fills in the tool's place, from the latest render too.
    Object.defineProperty(stable, 'outputSchema', { enumerable: true, get: () => latest.tool.outputSchema });
    if (now.validate !== undefined) {
      const validate: AnyValidate = {
        '~standard': {
          version: 1,
          vendor: 'toolgate',
          validate: (value, validateOptions) => {
            const current = latest.tool.validate;
            return current ? current['~standard'].validate(value, validateOptions) : { value };
          },
        },
      };
      stable.validate = validate;
    }
    return host.register(stable);
    // `key` stands for the registered fields; the rest is read through `latest`.
  }, [host, key, latest]);

  const select = useCallback(
    (state: AppToolHostState): Selected => ({ tool: hasOwn(state.tools, name) ? (state.tools[name] ?? null) : null, closed: state.closed }),
    [name],
  );
  const selected = useStoreSelector(host, select, sameSelected);
  return useMemo(() => viewOf(name, selected.tool, selected.closed), [name, selected]);
}

// In registration order (the declarations' order; `Object.values` would put integer-like names first).
const selectTools = (state: AppToolHostState): readonly AppToolState[] =>
  state.declarations.flatMap(({ name }) => (hasOwn(state.tools, name) && state.tools[name] ? [state.tools[name]] : []));

// Each tool's state is a new object only when that tool changed, so comparing item by item
// keeps the list (and the component) still while nothing of it changed.
const sameTools = (a: readonly AppToolState[], b: readonly AppToolState[]): boolean =>
  a.length === b.length && a.every((tool, i) => tool === b[i]);

/**
 * Every app tool registered with the host, with its live state, in registration order: for a
 * panel of all tools without a component per tool. Re-renders when a tool is added or removed,
 * or changes state; not for calls of unregistered tools.
 *
 * @example
 * function AppToolsPanel() {
 *   const tools = useAppTools();
 *   return <ul>{tools.map((t) => <li key={t.name}>{t.name}: {t.status}{t.queued ? ` (+${t.queued})` : ''}</li>)}</ul>;
 * }
 */
export function useAppTools(host?: AppToolHost): readonly AppToolState[] {
  return useStoreSelector(useAppToolHost(host), selectTools, sameTools);
}
