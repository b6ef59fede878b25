/**
 * Running one call that holds the slot, step by step (docs/protocol.md, "App tools"): the epoch gate once
 * more, the tool, its time limit, the JSON Schema and the validator (`INVALID`), the person's
 * approval (`REJECTED`), the run and its output. Each step settles what it can name itself
 * through the queue's one `settle`; anything that still escapes (a value no step foresaw) is
 * answered at once by `execute`, so a call never waits for its time limit because reading a
 * thrown value threw, and nothing is left as an unhandled rejection.
 *
 * What runs is what was shown: the validator's output (else the copy taken on arrival) is
 * snapshotted and deep-frozen once; that one object is what the state shows, what `confirm` and
 * the approval request carry, and what `run` receives.
 */

import { describeThrown } from '../external-store';
import { checkJsonSchema, EDIT_CHECK } from '../json/json-schema-check';
import type { JsonValue } from '../json/json-value';
import { sameJson } from '../json/json-diff';
import { validateStandard } from '../json/standard-schema';
import { abortReason, describeFailure, failure, readApproval, snapshotJsonSafely, thrownResult } from './answer-wording';
import type { CallQueue, CallRecord } from './call-queue';
import { startDeadline } from './deadline';
import type { ToolRegistry } from './declarations';
import type { EpochGate } from './epoch-gate';
import type { ToolResult } from '../wire';
import type { AppTool, AppToolApprovalHandler, AppToolApprovalRequest, AppToolClock, AppToolContext, AppToolEditCheck, AppToolEditing } from './types';

/** What running a call needs of the host. */
export interface CallRunnerOptions {
  readonly queue: CallQueue;
  readonly registry: ToolRegistry;
  readonly gate: EpochGate;
  readonly clock: AppToolClock;
  /** The limit of a tool without its own `timeoutMs`. */
  readonly timeoutMs: number;
  /** The approval handler now (it may be set or cleared while calls wait). */
  approvalHandler(): AppToolApprovalHandler | undefined;
  /** The call's progress changed. */
  touched(record: CallRecord): void;
  /** The run of this call begins: recorded where it outlives the page (throws when it cannot be). */
  recordStart(record: CallRecord): void;
}

/**
 * A mutable deep copy of a frozen snapshot, for a validator: some change their input in place
 * (ArkType's morphs throw on a frozen one), and none may touch the snapshot. `__proto__` keys
 * stay own keys (JSON.parse defines them as data).
 */
function thaw(value: JsonValue): unknown {
  return typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
}

/**
 * The runner of one host's calls.
 *
 * @example
 * const runner = createCallRunner({ queue, registry, gate, clock, timeoutMs: 30_000, approvalHandler: () => handler, touched });
 * runner.execute(record); // the call now holding the slot
 */
export function createCallRunner(options: CallRunnerOptions): { execute(record: CallRecord): void } {
  return {
    execute(record) {
      runCall(options, record).catch((error: unknown) => {
        options.queue.settle(record, failure('FAILED', `"${record.name}" could not be run to a result: ${describeThrown(error)}`));
      });
    },
  };
}

/** The one way the steps below end a call: through the queue's `settle`. */
function settle(options: CallRunnerOptions, record: CallRecord, result: ToolResult): void {
  options.queue.settle(record, result);
}

async function runCall(options: CallRunnerOptions, record: CallRecord): Promise<void> {
  const { queue, registry, gate, clock } = options;
  // Start outside `call()` and outside another call's settle: user code never runs re-entrantly.
  await undefined;
  if (record.result) return;
  if (gate.isBelowFloor(record.epoch)) {
    return settle(options, record, failure('INTERRUPTED', `the call's epoch ${record.epoch} is below the gate's floor ${gate.floor}`));
  }
  const registration = registry.get(record.name);
  if (!registration) return settle(options, record, failure('FAILED', `no app tool named "${record.name}" is registered in this page`));
  // Hold this registration's tool: an unregister while the call runs does not change what runs.
  const tool = registration.tool;
  const limitMs = tool.timeoutMs ?? options.timeoutMs;
  record.deadline = startDeadline(clock, limitMs, () => {
    queue.abort(record, failure('TIMEOUT', `no result within ${limitMs} ms`), abortReason(`timed out after ${limitMs} ms`, 'TimeoutError'));
  });

  const args = await checkArguments(options, record, tool);
  if (args === undefined || record.result) return;
  // From here `args` is the one object the state shows, the person reviews and `run` receives.
  record.args = args;
  options.touched(record);
  const approved = await approve(options, record, tool, args, registration.declaration.parameters);
  if (approved === undefined) return;
  if (approved !== args) {
    // The person's edit, checked again: from here it is the one object the state shows and `run` receives.
    record.args = approved;
    options.touched(record);
  }

  queue.setStatus(record, 'running');
  try {
    options.recordStart(record);
  } catch (error) {
    // docs/protocol.md, "Sessions that survive a reload": a run that could not be recorded might run again
    // in a page that resumes the session after a reload. Never twice comes first.
    const message = `"${tool.name}" was not run: recording that it started failed (${describeFailure(error)}), and a page that resumed the session could run it again`;
    return settle(options, record, failure('FAILED', message));
  }
  let output: unknown;
  try {
    output = await tool.run(approved, contextOf(options, record, tool));
  } catch (error) {
    if (record.result) return; // dropped after an abort (docs/protocol.md, "App tools")
    return settle(options, record, thrownResult(tool.name, error));
  }
  if (record.result) return;
  // A tool that returns nothing answers with output: null (docs/protocol.md, "App tools").
  const json = snapshotJsonSafely(output === undefined ? null : output, 'output');
  if (!json.ok) return settle(options, record, failure('FAILED', `the output of "${tool.name}" cannot be sent as JSON: ${json.reason}`));
  settle(options, record, Object.freeze({ ok: true as const, output: json.value }));
}

/**
 * The JSON Schema and the validator. Returns what runs (the validator's frozen output, else the
 * arrival snapshot), or `undefined` once the call is settled.
 */
async function checkArguments(options: CallRunnerOptions, record: CallRecord, tool: AppTool<unknown>): Promise<JsonValue | undefined> {
  // The JSON Schema is what the model was told, so it judges the arguments the model sent.
  if (tool.parameters !== undefined) {
    const checked = checkJsonSchema(tool.parameters, record.received);
    if (!checked.ok) return void settle(options, record, failure('INVALID', checked.message));
  }
  if (!tool.validate) return record.received;
  const input = thaw(record.received);
  let validated;
  try {
    validated = await validateStandard(tool.validate, input);
  } catch (error) {
    return void settle(options, record, failure('FAILED', `the validator of "${tool.name}" threw: ${describeFailure(error)}`));
  }
  if (record.result) return undefined;
  if (!validated.ok) return void settle(options, record, failure('INVALID', validated.message));
  // What the person reviews and `run` receives must be the same plain value: a validator whose
  // output JSON cannot carry (a Date, a Map, a function) is a bug in the tool, not bad input.
  const output = snapshotJsonSafely(validated.value, 'arguments');
  if (!output.ok) {
    const message = `the validator of "${tool.name}" gave a value that is not JSON (${output.reason}); what runs must be what can be shown`;
    return void settle(options, record, failure('FAILED', message));
  }
  return output.value;
}

/**
 * Ask the person when the tool says so. Returns what runs (the arguments asked about, or the
 * person's edit of them, checked again), or `undefined` once the call is settled.
 */
async function approve(
  options: CallRunnerOptions,
  record: CallRecord,
  tool: AppTool<unknown>,
  args: JsonValue,
  declared: Record<string, unknown> | undefined,
): Promise<JsonValue | undefined> {
  let needsApproval: boolean;
  // Read once per call: the edit is checked against what the person was offered, whatever the tool says later.
  let editable: boolean;
  try {
    needsApproval = typeof tool.confirm === 'function' ? tool.confirm(args) === true : tool.confirm === true;
    editable = needsApproval && tool.editable === true;
  } catch (error) {
    settle(options, record, failure('FAILED', `confirm of "${tool.name}" threw: ${describeFailure(error)}`));
    return undefined;
  }
  if (!needsApproval) return args;
  // docs/protocol.md, "App tools": time spent waiting for approval does not count against the limit.
  record.deadline?.pause();
  options.queue.setStatus(record, 'awaiting-approval');
  const handler = options.approvalHandler();
  if (!handler) {
    settle(options, record, failure('REJECTED', `"${tool.name}" needs the user's approval and nothing in this page can ask for it`));
    return undefined;
  }
  let answer: ReturnType<typeof readApproval>;
  try {
    const { callId, turnId, epoch, name: toolName, controller } = record;
    const editing = editable ? editingOf(tool, declared) : undefined;
    answer = readApproval(
      await handler(
        Object.freeze({ callId, turnId, epoch, toolName, arguments: args, signal: controller.signal, ...(editing ? { editable: editing } : {}), definition: definitionOf(tool, declared), ...outputSchemaOf(tool) }),
      ),
    );
  } catch (error) {
    settle(options, record, failure('FAILED', `asking for approval failed: ${describeFailure(error)}`));
    return undefined;
  }
  // Withdrawn while waiting (interrupt, close): the call already has INTERRUPTED.
  if (record.result) return undefined;
  if (!answer.approved && answer.instead?.decision === 'respond') {
    // The person's answer is the call's result: the tool does not run.
    settle(options, record, { ok: true, output: answer.instead.output });
    return undefined;
  }
  if (!answer.approved && answer.instead?.decision === 'cancel') {
    // Withdrawn, not rejected: the model is told the request was cancelled.
    settle(options, record, failure('INTERRUPTED', `cancelled: the person withdrew the request${answer.reason === '' ? '' : ` (${answer.reason})`}; it was not rejected`));
    return undefined;
  }
  if (!answer.approved) {
    // The reason is the person's: it goes with REJECTED to the model.
    settle(options, record, failure('REJECTED', answer.reason === '' ? 'declined by the user' : `declined by the user: ${answer.reason}`));
    return undefined;
  }
  let approved = args;
  if (answer.edited !== undefined) {
    const edit = await checkEdit(tool, answer.edited.value, editable ? declared : null);
    if (record.result) return undefined;
    if (!edit.ok) {
      settle(options, record, failure(edit.code, edit.message));
      return undefined;
    }
    approved = edit.value;
  }
  record.deadline?.resume();
  return approved;
}

/**
 * What the editor of an editable tool checks a draft with: the schema the model was told (the
 * tool's own, or the one its validator declares), then its validator (whose output would run).
 */
/** The tool as registered, for its definition fingerprint (a grant given for another definition does not answer it). */
function definitionOf(tool: AppTool<unknown>, declared: Record<string, unknown> | undefined): NonNullable<AppToolApprovalRequest['definition']> {
  return Object.freeze({
    name: tool.name,
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    ...(declared === undefined ? {} : { parameters: declared }),
  });
}

/** The tool's output schema when it declares a schema object; nothing otherwise. */
function outputSchemaOf(tool: AppTool<unknown>): { outputSchema?: Record<string, unknown> } {
  const schema: unknown = tool.outputSchema;
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? { outputSchema: schema as Record<string, unknown> } : {};
}

function editingOf(tool: AppTool<unknown>, declared: Record<string, unknown> | undefined): AppToolEditing {
  return Object.freeze({
    ...(declared === undefined ? {} : { schema: declared }),
    validate: async (draft: JsonValue): Promise<AppToolEditCheck> => {
      const checked = await validateEdit(tool, draft);
      if (checked.ok) return { ok: true, value: checked.value };
      return { ok: false, issues: checked.issues };
    },
  });
}

type EditValidation = { ok: true; value: JsonValue } | { ok: false; message: string; issues: readonly { path: readonly (string | number)[]; message: string }[] };

/** The tool's validator over a draft; its output, as JSON, is what would run. */
async function validateEdit(tool: AppTool<unknown>, draft: JsonValue): Promise<EditValidation> {
  if (!tool.validate) return { ok: true, value: draft };
  const validated = await validateStandard(tool.validate, thaw(draft));
  if (!validated.ok) {
    const issues = validated.issues.map((issue) => ({
      path: (issue.path ?? []).flatMap((segment) => {
        const key: unknown = typeof segment === 'object' && segment !== null ? segment.key : segment;
        return typeof key === 'string' || typeof key === 'number' ? [key] : [];
      }),
      message: issue.message,
    }));
    return { ok: false, message: validated.message, issues };
  }
  const output = snapshotJsonSafely(validated.value, 'arguments');
  if (!output.ok) return { ok: false, message: `the validator gave a value that is not JSON (${output.reason})`, issues: [{ path: [], message: output.reason }] };
  return { ok: true, value: output.value };
}

/**
 * The person's edit, checked again before it runs (the page's editor checked it already, but the
 * answer is data like any other): only for an editable tool, JSON, the schema, the validator. It
 * runs exactly as approved; a validator that would change it again means what runs would not be
 * what was approved, so it does not run.
 */
async function checkEdit(
  tool: AppTool<unknown>,
  value: unknown,
  /** The schema the editor checked with (`undefined`: none), or `null` when the person was not offered an edit. */
  schema: Record<string, unknown> | undefined | null,
): Promise<{ ok: true; value: JsonValue } | { ok: false; code: 'INVALID' | 'FAILED'; message: string }> {
  if (schema === null) return { ok: false, code: 'FAILED', message: `"${tool.name}" is not editable, but the approval carried edited arguments; nothing ran` };
  const json = snapshotJsonSafely(value, 'arguments');
  if (!json.ok) return { ok: false, code: 'INVALID', message: `the edited arguments are not JSON: ${json.reason}` };
  if (schema !== undefined) {
    const checked = checkJsonSchema(schema, json.value, EDIT_CHECK);
    if (!checked.ok) return { ok: false, code: 'INVALID', message: `the edited arguments: ${checked.message}` };
  }
  let validated: EditValidation;
  try {
    validated = await validateEdit(tool, json.value);
  } catch (error) {
    return { ok: false, code: 'FAILED', message: `the validator of "${tool.name}" threw: ${describeFailure(error)}` };
  }
  if (!validated.ok) return { ok: false, code: 'INVALID', message: `the edited arguments: ${validated.message}` };
  if (!sameJson(validated.value, json.value)) {
    return { ok: false, code: 'INVALID', message: `the validator of "${tool.name}" changes the edited arguments again; what runs must be what was approved, so nothing ran` };
  }
  return { ok: true, value: json.value };
}

function contextOf(options: CallRunnerOptions, record: CallRecord, tool: AppTool<unknown>): AppToolContext {
  return Object.freeze({
    signal: record.controller.signal,
    callId: record.callId,
    turnId: record.turnId,
    epoch: record.epoch,
    emit: (progress: unknown) => {
      if (record.result) return; // late progress of an aborted run is dropped like its result
      record.progress = progress;
      options.touched(record);
    },
    waitForPerson: async <T>(answer: PromiseLike<T>): Promise<T> => {
      if (tool.waitsForPerson !== true) return answer;
      record.deadline?.pause();
      try {
        return await answer;
      } finally {
        record.deadline?.resume();
      }
    },
  });
}

