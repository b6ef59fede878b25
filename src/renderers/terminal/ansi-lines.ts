/**
 * Command output as lines of styled runs, parsed by `anser` (no HTML strings: the runs are data that
 * React renders as text). Incremental: output that grows by appending is parsed only where it grew,
 * so a long stream costs in proportion to its length, not to its length per update.
 *
 * anser parses each call on its own, so a colour set on one line would be lost on the next; the
 * styles still open at the end of a line (every SGR sequence since the last reset) are carried
 * into the next line's parse.
 */
import Anser from 'anser';

/**
 * One run of text in one style. Colours are a named ANSI colour (`red`, `bright-blue`) or `r g b`.
 *
 * @example
 * const run: AnsiRun = { text: 'FAIL', fg: 'red', bold: true };
 */
export interface AnsiRun {
  readonly text: string;
  readonly fg?: string;
  readonly bg?: string;
  readonly bold?: true;
  readonly dim?: true;
  readonly italic?: true;
  readonly underline?: true;
  readonly strikethrough?: true;
  readonly inverse?: true;
}

/**
 * A line of output: its runs, and its plain text (for copying and searching).
 *
 * @example
 * const line: AnsiLine = { runs: [{ text: 'ok' }], text: 'ok' };
 */
export interface AnsiLine {
  readonly runs: readonly AnsiRun[];
  readonly text: string;
}

/**
 * The parsed output so far; `push` the whole text again as it grows.
 *
 * @example
 * const parsed: AnsiLines = createAnsiLines();
 * parsed.push('building…\n');
 */
export interface AnsiLines {
  /** Takes the whole output so far; returns the lines (the last one may still be growing). */
  push(text: string): readonly AnsiLine[];
  readonly lines: readonly AnsiLine[];
}

// Sequences that are not colours: OSC (hyperlinks, titles) and CSI other than SGR (cursor moves,
// line erases). A log view has no cursor: they are dropped, never shown as stray characters.
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const NON_SGR_CSI = /\u001b\[[0-9;?]*[A-Za-ln-z@`]/g;
const SGR = /\u001b\[([0-9;]*)m/g;
const MAX_CARRY = 32;

/**
 * Parses output incrementally into lines of styled runs.
 *
 * @example
 * const parsed = createAnsiLines();
 * parsed.push('\u001b[32mok\u001b[0m 3 tests\n');
 * parsed.lines[0]?.runs[0] // { text: 'ok', fg: 'green' }
 */
export function createAnsiLines(): AnsiLines {
  let seen = '';
  let done: AnsiLine[] = []; // complete lines (ended by a line break)
  let carry: string[] = []; // SGR sequences open at the end of the last complete line
  let lines: readonly AnsiLine[] = [];

  const reset = () => {
    seen = '';
    done = [];
    carry = [];
  };

  return {
    push(text) {
      if (!text.startsWith(seen)) reset();
      // Complete lines not parsed yet: from the end of the last complete line to the last break.
      const parsedUpTo = seen.lastIndexOf('\n') + 1;
      const lastBreak = text.lastIndexOf('\n');
      if (lastBreak >= parsedUpTo) {
        for (const raw of text.slice(parsedUpTo, lastBreak).split('\n')) {
          done.push(parseLine(raw, carry));
          carry = openStyles(carry, raw);
        }
      }
      seen = text;
      const tail = text.slice(lastBreak + 1);
      lines = tail === '' ? done.slice() : [...done, parseLine(tail, carry)];
      return lines;
    },
    get lines() {
      return lines;
    },
  };
}

/** The SGR sequences still in force after `raw`: a reset (`0` or empty) clears what came before. */
function openStyles(carry: string[], raw: string): string[] {
  let open = carry;
  for (const match of raw.matchAll(SGR)) {
    const params = match[1] ?? '';
    if (params === '' || params === '0' || /(^|;)0$/.test(params)) open = [];
    else open = [...open, match[0]].slice(-MAX_CARRY);
  }
  return open;
}

function parseLine(raw: string, carry: readonly string[]): AnsiLine {
  // A carriage return starts the line again: a progress bar shows its last state.
  const segments = raw.replace(OSC, '').replace(NON_SGR_CSI, '').split('\r');
  const visible = segments.filter((s) => s.replace(SGR, '') !== '').at(-1) ?? '';
  // Styles set in overwritten segments still hold for the visible one.
  const before = segments.slice(0, segments.lastIndexOf(visible)).join('');
  const source = carry.join('') + (before.match(SGR) ?? []).join('') + visible;
  const runs: AnsiRun[] = [];
  for (const entry of Anser.ansiToJson(source, { use_classes: true, remove_empty: true })) {
    if (entry.content === '') continue;
    runs.push(toRun(entry));
  }
  return { runs, text: runs.map((r) => r.text).join('') };
}

type Entry = ReturnType<typeof Anser.ansiToJson>[number] & { isInverted?: boolean };

function toRun(entry: Entry): AnsiRun {
  const run: { -readonly [K in keyof AnsiRun]: AnsiRun[K] } = { text: entry.content };
  const fg = colour(entry.fg, entry.fg_truecolor);
  const bg = colour(entry.bg, entry.bg_truecolor);
  if (fg !== undefined) run.fg = fg;
  if (bg !== undefined) run.bg = bg;
  const decorations = new Set(entry.decorations ?? []);
  if (entry.decoration !== null) decorations.add(entry.decoration);
  if (decorations.has('bold')) run.bold = true;
  if (decorations.has('dim')) run.dim = true;
  if (decorations.has('italic')) run.italic = true;
  if (decorations.has('underline')) run.underline = true;
  if (decorations.has('strikethrough')) run.strikethrough = true;
  if (decorations.has('reverse') || entry.isInverted === true) run.inverse = true;
  return run;
}

/** `ansi-red` → `red`; `ansi-palette-196` and truecolor → `r g b`. */
function colour(name: string | null, truecolor: string | null): string | undefined {
  if (name === null || name === undefined) return undefined;
  if (name === 'ansi-truecolor') return truecolor === null ? undefined : truecolor.split(/,\s*/).join(' ');
  const palette = /^ansi-palette-(\d+)$/.exec(name);
  if (palette !== null) return paletteRgb(Number(palette[1]));
  return name.replace(/^ansi-/, '');
}

const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** xterm's 256 colours: 16 named, a 6×6×6 cube, then 24 greys. */
function paletteRgb(index: number): string {
  if (index < 8) return BASIC[index]!;
  if (index < 16) return `bright-${BASIC[index - 8]!}`;
  if (index < 232) {
    const n = index - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return `${level(Math.floor(n / 36))} ${level(Math.floor(n / 6) % 6)} ${level(n % 6)}`;
  }
  const grey = 8 + (index - 232) * 10;
  return `${grey} ${grey} ${grey}`;
}
