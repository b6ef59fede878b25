/**
 * Events only the page itself may produce: the user's own interrupt and an approval mark.
 *
 * docs/protocol.md, "Rules of the stream": they never come from a session. The page makes them through the store's
 * actions (`interrupt`, `markApproval`), which reach the reducer by a path of their own
 * (`stepLocalToolEvent`); `dispatch`, the path of session input, never applies one. So a session
 * frame cannot act as a local event however it is spelled: it has no way in. A frame that names
 * one all the same is refused with the reason and the code `local-only`, so the page hears of the
 * attempt (see `localOnlyNameIn`).
 */
import type { JsonValue } from '../json/json-value';

/**
 * Where a call stands with a person's approval: waiting, approved, denied, or expired before an
 * answer. Absent on a call that needs no approval.
 *
 * @example
 * const waiting = (call: ToolCall) => call.approval === ('awaiting' satisfies ToolApproval);
 */
export type ToolApproval = 'awaiting' | 'approved' | 'denied' | 'expired' | 'refused' | 'responded' | 'cancelled';

/**
 * The approval states, waiting first; `refused`: the server refused the page's answer (a wrong
 * fingerprint, an edit it would not take), so nothing ran.
 *
 * @example
 * TOOL_APPROVALS.includes(value as ToolApproval)
 */
export const TOOL_APPROVALS: readonly ToolApproval[] = ['awaiting', 'approved', 'denied', 'expired', 'refused', 'responded', 'cancelled'];

/**
 * What the page marks on a call about its approval (`store.getState().markApproval(callId, mark)`).
 *
 * @example
 * const mark: ApprovalMark = { approval: 'approved', approvedArguments: { to: 'bob', amount: 5 }, edited: true };
 */
export interface ApprovalMark {
  approval: ToolApproval;
  /**
   * What runs: the snapshot a person approved, edited, or the gate's rewrite of the model's
   * arguments. Copied and deep-frozen; a value that is not JSON is refused.
   */
  approvedArguments?: JsonValue | undefined;
  /** The person edited the arguments before approving them. */
  edited?: boolean | undefined;
  /** The standing grant that answered the request (a grant's label or id), when one did. */
  grant?: string | undefined;
  /** Why: a denial's reason, or what made the request expire. */
  reason?: string | undefined;
  /** `'rule'`: a policy rule answered the request, with nobody looking at it. */
  by?: 'rule' | undefined;
  /** The id of the rule that answered it. */
  ruleId?: string | undefined;
  /** The rule's label, when it has one: what the card names ("Allowed by …"). */
  ruleLabel?: string | undefined;
}

/**
 * The user interrupted `turnId` (every open call when it is absent).
 *
 * @example
 * const local: LocalInterruptEvent = { type: 'interrupt', turnId: 't1' };
 */
export interface LocalInterruptEvent {
  type: 'interrupt';
  turnId?: string | undefined;
}

/**
 * The page marked a call's approval.
 *
 * @example
 * const local: LocalApprovalEvent = { type: 'approval', callId: 'c1', mark: { approval: 'awaiting' } };
 */
export interface LocalApprovalEvent {
  type: 'approval';
  callId: string;
  mark: ApprovalMark;
}

/**
 * An event only the page produces, applied through `stepLocalToolEvent` (the store's
 * `interrupt` and `markApproval`), never through `dispatch`.
 *
 * @example
 * const next = reduceLocalToolEvent(state, { type: 'interrupt', turnId: 't1' } satisfies LocalToolEvent);
 */
export type LocalToolEvent = LocalInterruptEvent | LocalApprovalEvent;

/* --------------------------------------------- frames that name a local event */

/**
 * Names reserved for the page's own events. A session frame whose type (or phase) folds to one
 * of these is refused: `toolgate…` is the kit's own namespace, which no session speaks; the
 * others name a local event outright. (A bare `interrupt` or `approval` is left alone: other
 * protocols use those words for their own messages.)
 */
const RESERVED_PREFIX = 'toolgate';
const RESERVED_NAMES = new Set(['localinterrupt', 'markapproval', 'approvalmark', 'localapproval']);

/** Keys a frame may use to say what it is: looked at in any spelling, and everything below them. */
const TYPE_KEYS = new Set(['type', 'phase', 'kind', 'event', 'eventtype', 'action']);
/** Keys of an envelope around another frame: looked into, for the keys above. */
const ENVELOPE_KEYS = new Set(['data', 'payload', 'message', 'frame', 'body', 'detail', 'events', 'batch']);

/**
 * Letters that look like Latin ones but are not (Cyrillic, Greek, others) and digits used as
 * letters, each folded to the letter at the same place in `LATIN_OF`. NFKD already folds
 * full-width, ligature, math and accented forms.
 */
const LOOK_ALIKE = 'аеорсухіјѕԁԛԝһӏгпткмвньɡɑıȷℓʟꞃᴛᴏᴀɢᴇʀᴘᴜᴠᴍɪɴαεορτυνικχμηγλϲϳ0134579|!@$';
const LATIN_OF = 'aeopcyxijsdqwhlrntkmbhbgaijllrtoagerpuvminaeoptuvikxmnylcjoleastglias';

/**
 * A name as a person would read it: compatibility-decomposed, lower case, marks dropped, look-alike
 * letters folded, everything but letters left out (case, separators, spaces, zero-width characters).
 */
function fold(name: string): string {
  const decomposed = name.normalize('NFKD').toLowerCase().normalize('NFKD');
  let out = '';
  for (const ch of decomposed) {
    const at = LOOK_ALIKE.indexOf(ch);
    const folded = at < 0 ? ch : (LATIN_OF[at] as string);
    if (folded >= 'a' && folded <= 'z') out += folded;
  }
  return out;
}

/** Whether a name, however spelled, is one the page alone may use. */
export function isLocalOnlyName(name: string): boolean {
  // Long names are no event names: keep the fold cheap whatever a frame carries.
  if (name.length > 200) return false;
  const folded = fold(name);
  return folded.startsWith(RESERVED_PREFIX) || RESERVED_NAMES.has(folded);
}

const MAX_DEPTH = 4;
const MAX_ENTRIES = 64;

/**
 * The local event name a frame carries in a field that says what it is (`type`, `phase` and the
 * like, in any spelling of the key, in a nested object or array below one), or `undefined`.
 * Bounded: looks at most a few levels deep and a few dozen entries, and never throws.
 *
 * @example
 * localOnlyNameIn({ type: 'Toolgate.Interrupt', turnId: 't1' }) // 'Toolgate.Interrupt'
 * localOnlyNameIn({ type: 'tool.stream', phase: 'start' }) // undefined
 */
export function localOnlyNameIn(frame: unknown): string | undefined {
  let budget = MAX_ENTRIES;
  const visit = (value: unknown, depth: number, named: boolean): string | undefined => {
    if (budget-- <= 0) return undefined;
    if (typeof value === 'string') return named && isLocalOnlyName(value) ? value : undefined;
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && budget > 0; i++) {
        const found = visit(value[i], depth + 1, named);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (budget <= 0) return undefined;
      const folded = named ? '' : fold(key);
      const keyNames = named || TYPE_KEYS.has(folded);
      // Arguments, outputs and other data are not looked into: a value there names nothing.
      if (!keyNames && !ENVELOPE_KEYS.has(folded)) continue;
      const found = visit((value as Record<string, unknown>)[key], depth + 1, keyNames);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  try {
    return visit(frame, 0, false);
  } catch {
    // A frame whose getters or traps throw is malformed; validation says so.
    return undefined;
  }
}
