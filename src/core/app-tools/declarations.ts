/**
 * The registered tools and what `hello` and `tools.update` declare of them (docs/protocol.md, "App tools",
 * "The session"): names are unique, each declaration is checked JSON when the tool registers
 * (not at hello), and an unregister is deferred one tick so a StrictMode remount does not drop a
 * tool that a call is about to reach. The declarations array stays the same object while nothing
 * a server sees changed, so a remount announces nothing.
 */

import type { ErrorReporter } from '../external-store';
import { snapshotJson } from '../json/json-value';
import { jsonSchemaFromValidator } from '../json/json-schema-from-validator';
import { isStandardSchema } from '../json/standard-schema';
import type { ToolDeclaration } from '../wire';
import type { AppTool, AppToolState } from './types';

/** One registered tool, with what the state shows of it. */
export interface Registration {
  /** Which `register` call holds the name now (a remount takes it over with a new token). */
  token: object;
  tool: AppTool<unknown>;
  declaration: ToolDeclaration;
  /** Its declaration as JSON text: what a server sees, compared to keep the declarations array. */
  declarationKey: string;
  pendingRemoval: boolean;
  lastResult: AppToolState['lastResult'];
  /** The frozen state of this tool, built on first read after a change. */
  view: AppToolState | undefined;
}

/** The tools of one host. */
export interface ToolRegistry {
  register(tool: AppTool<unknown>): () => void;
  get(name: string): Registration | undefined;
  /** In registration order. */
  values(): IterableIterator<Registration>;
  /** `name`, `description`, `parameters` of every tool, in registration order. */
  declarations(): readonly ToolDeclaration[];
}

/** What the registry needs of the host. */
export interface ToolRegistryOptions {
  defer: (task: () => void) => void;
  report: ErrorReporter;
  /** A tool was added, taken over or removed. */
  changed: (name: string) => void;
}

/** Throw a clear error for a time limit that is not a positive number of ms (or Infinity). */
export function checkTimeout(value: unknown, what: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new TypeError(`${what} must be a positive number of ms (or Infinity), not ${String(value)}`);
  }
}

/** Throw a clear error at register time for what cannot be a tool; returns its name. */
function checkTool(tool: AppTool<unknown>): string {
  if (typeof tool !== 'object' || tool === null) throw new TypeError('register(tool): tool must be an object');
  const { name } = tool;
  if (typeof name !== 'string' || name === '') throw new TypeError('register(tool): tool.name must be a non-empty string');
  if (typeof tool.run !== 'function') throw new TypeError(`app tool "${name}": run must be a function`);
  if (tool.validate !== undefined && !isStandardSchema(tool.validate)) {
    throw new TypeError(`app tool "${name}": validate must be a Standard Schema validator (zod, valibot, ArkType, …)`);
  }
  if (tool.confirm !== undefined && typeof tool.confirm !== 'boolean' && typeof tool.confirm !== 'function') {
    throw new TypeError(`app tool "${name}": confirm must be a boolean or a function of the arguments`);
  }
  checkTimeout(tool.timeoutMs, `app tool "${name}": timeoutMs`);
  return name;
}

/** The declaration goes over the wire, so its schema must be JSON (checked now, not at hello). */
function declare(tool: AppTool<unknown>, name: string, report: ErrorReporter): ToolDeclaration {
  const declaration: ToolDeclaration = { name };
  if (tool.description !== undefined) {
    if (typeof tool.description !== 'string') throw new TypeError(`app tool "${name}": description must be a string`);
    declaration.description = tool.description;
  }
  if (tool.parameters !== undefined) {
    const parameters = snapshotJson(tool.parameters);
    if (!parameters.ok || typeof parameters.value !== 'object' || parameters.value === null || Array.isArray(parameters.value)) {
      throw new TypeError(
        `app tool "${name}": parameters must be a JSON Schema object${parameters.ok ? '' : ` (${parameters.reason.replace(/^arguments/, 'parameters')})`}`,
      );
    }
    declaration.parameters = parameters.value as Record<string, unknown>;
  } else if (tool.validate !== undefined) {
    // Without parameters, the model still learns the arguments where the validator's library can say them.
    const derived = jsonSchemaFromValidator(tool.validate);
    if (derived?.ok) declaration.parameters = derived.schema;
    else if (derived) {
      report(`app tool "${name}" is declared without parameters: ${derived.reason}. Give it parameters (a JSON Schema).`, tool, 'parameters-not-derived');
    }
  }
  return Object.freeze(declaration);
}

/**
 * The tools of one host, in registration order.
 *
 * @example
 * const tools = createToolRegistry({ defer: queueMicrotask, report: console.warn, changed: () => render() });
 * const unregister = tools.register({ name: 'set_title', run: () => null });
 */
export function createToolRegistry(options: ToolRegistryOptions): ToolRegistry {
  const { defer, report, changed } = options;
  const registry = new Map<string, Registration>();
  let declarations: readonly ToolDeclaration[] = Object.freeze([]);
  let declarationKeys: readonly string[] = [];

  function refreshDeclarations(): void {
    const next: ToolDeclaration[] = [];
    const keys: string[] = [];
    for (const registration of registry.values()) {
      next.push(registration.declaration);
      keys.push(registration.declarationKey);
    }
    // Keep the same array when nothing a server sees changed, so a StrictMode remount announces nothing.
    const same = keys.length === declarationKeys.length && keys.every((key, i) => key === declarationKeys[i]);
    declarations = same ? declarations : Object.freeze(next);
    declarationKeys = keys;
  }

  function register(tool: AppTool<unknown>): () => void {
    const name = checkTool(tool);
    const declaration = declare(tool, name, report);
    const declarationKey = JSON.stringify(declaration);
    const existing = registry.get(name);
    if (existing && !existing.pendingRemoval) {
      throw new Error(
        `An app tool named "${name}" is already registered. Tool names must be unique: unregister the other one first or choose another name.`,
      );
    }
    const token = {};
    if (existing) {
      // A remount within the tick (StrictMode): take over the registration and keep its state.
      Object.assign(existing, { token, tool, declaration, declarationKey, pendingRemoval: false, view: undefined });
    } else {
      registry.set(name, { token, tool, declaration, declarationKey, pendingRemoval: false, lastResult: null, view: undefined });
    }
    refreshDeclarations();
    changed(name);

    let unregistered = false;
    return () => {
      if (unregistered) return;
      unregistered = true;
      const registration = registry.get(name);
      if (!registration || registration.token !== token) return;
      registration.pendingRemoval = true;
      defer(() => {
        const current = registry.get(name);
        if (!current || current.token !== token || !current.pendingRemoval) return;
        registry.delete(name);
        refreshDeclarations();
        changed(name);
      });
    };
  }

  return {
    register,
    get: (name) => registry.get(name),
    values: () => registry.values(),
    declarations: () => declarations,
  };
}
