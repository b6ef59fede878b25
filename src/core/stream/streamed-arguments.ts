/**
 * Whether a call's final arguments agree with the text that streamed before them.
 *
 * docs/protocol.md, "Rules of the stream": an `arguments-complete` that disagrees with the streamed text keeps the final
 * value, marks `argumentsMismatch` and says so through `onError`; it must never switch the call
 * silently. Values are compared as canonical JSON (RFC 8785) compares them, so key order, spacing
 * and number spelling do not count: two JSON values have the same canonical text exactly when they
 * are equal as values (`sameJson`; a test holds the two equal), and comparing the values needs
 * neither text nor the canonical serializer in the store's bundle. Text that stopped short of a
 * whole value is compared with what it shows: its preview must not contradict the final value
 * (the rule every preview keeps).
 */
import { createArgumentsParser, type ArgumentsPath } from '../json/arguments-parser';
import { sameJson } from '../json/json-diff';
import type { JsonValue } from '../json/json-value';

/** What the streamed text says about the final value: nothing to compare, agreement, or why not. */
export type StreamAgreement = { agrees: true } | { agrees: false; reason: string };

const AGREES: StreamAgreement = { agrees: true };

/**
 * Compare the final arguments with the streamed text's reading of them.
 *
 * @param text the streamed argument text (`''` when nothing streamed: nothing to compare)
 * @param streamed the text's value when it is whole JSON, else its preview
 * @param complete whether the text is one whole JSON value
 * @param error why the text can never be JSON, if it cannot
 */
export function compareWithStream(text: string, streamed: unknown, complete: boolean, error: string | undefined, final: JsonValue): StreamAgreement {
  if (text.trim() === '') return AGREES;
  if (error !== undefined) {
    return { agrees: false, reason: `the streamed argument text is not JSON (${error}); the final arguments replace it` };
  }
  try {
    if (complete ? sameJson(streamed, final) : fits(streamed, final)) return AGREES;
    const verb = complete ? 'differ from the streamed text' : 'contradict what the streamed text showed';
    return { agrees: false, reason: `the final arguments ${excerpt(JSON.stringify(final))} ${verb} ${excerpt(JSON.stringify(streamed))}` };
  } catch {
    // Too deep to walk: nothing can be claimed.
    return AGREES;
  }
}

/** Whether a preview (closed values whole, open strings and containers cut short) fits `final`. */
function fits(preview: unknown, final: unknown): boolean {
  if (preview === undefined) return true;
  if (typeof preview === 'string') return typeof final === 'string' && final.startsWith(preview);
  if (typeof preview !== 'object' || preview === null) return preview === final;
  if (Array.isArray(preview)) {
    if (!Array.isArray(final) || preview.length > final.length) return false;
    return preview.every((item, i) => fits(item, final[i]));
  }
  if (typeof final !== 'object' || final === null || Array.isArray(final)) return false;
  for (const key of Object.keys(preview)) {
    if (!Object.prototype.hasOwnProperty.call(final, key)) return false;
    if (!fits((preview as Record<string, unknown>)[key], (final as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * The first key written twice in JSON text (given as a string to `arguments-complete`), which
 * `JSON.parse` resolves silently to the last value.
 */
export function duplicateKeyIn(text: string): ArgumentsPath | undefined {
  const parser = createArgumentsParser({ keepText: false });
  parser.append(text);
  return parser.duplicateKeyPath;
}

function excerpt(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
