/*
 * The error an app tool's `run` throws to answer with a code other than `FAILED`.
 *
 * (docs/protocol.md, "App tools"): app tools validate inside `run`, so `run` needs a way to say
 * "these arguments are not valid" (`INVALID`) or "declined" (`REJECTED`) rather than "I broke"
 * (`FAILED`, which any other thrown value becomes).
 */

/**
 * The result codes a `run` may choose by throwing a {@link ToolError}.
 *
 * @example
 * throw new ToolError('INVALID' satisfies ToolErrorCode, 'title must not be empty');
 */
export type ToolErrorCode = 'INVALID' | 'REJECTED';

/**
 * A brand shared by every copy of this module: the kit may be bundled twice (the React
 * entry and `toolgate/core`), and `instanceof` against the other copy's class would fail.
 */
const TOOL_ERROR_BRAND = Symbol.for('toolgate.ToolError');

/**
 * Thrown by an app tool's `run` to answer `INVALID` or `REJECTED` with a message of its own.
 * Anything else a `run` throws answers `FAILED`.
 *
 * @example
 * host.register({
 *   name: 'move_block',
 *   async run({ blockId }, { signal }) {
 *     if (!editor.has(blockId)) throw new ToolError('INVALID', `no block ${blockId}`);
 *     if (editor.locked(blockId)) throw new ToolError('REJECTED', 'the block is locked');
 *     return editor.move(blockId);
 *   },
 * });
 */
export class ToolError extends Error {
  /** The result code the call answers with. */
  readonly code: ToolErrorCode;

  constructor(code: ToolErrorCode, message?: string, options?: { cause?: unknown }) {
    super(message ?? (code === 'INVALID' ? 'invalid arguments' : 'rejected'), options);
    if (code !== 'INVALID' && code !== 'REJECTED') {
      // A typo here would silently turn into FAILED later; say so where it happens.
      throw new TypeError(`ToolError code must be 'INVALID' or 'REJECTED', not ${JSON.stringify(code)}`);
    }
    this.code = code;
    this.name = 'ToolError';
    Object.defineProperty(this, TOOL_ERROR_BRAND, { value: true });
  }
}

/**
 * True for a {@link ToolError}, including one built by another copy of the kit.
 *
 * @example
 * try { await run(args) } catch (error) { if (isToolError(error)) console.log(error.code) }
 */
export function isToolError(value: unknown): value is ToolError {
  // Never throws: a thrown value may be a Proxy whose traps throw, and it is then no ToolError.
  try {
    if (value instanceof ToolError) return true;
    if (typeof value !== 'object' || value === null) return false;
    const v = value as { [TOOL_ERROR_BRAND]?: unknown; code?: unknown };
    if (v[TOOL_ERROR_BRAND] !== true) return false;
    const code = v.code;
    return code === 'INVALID' || code === 'REJECTED';
  } catch {
    return false;
  }
}
