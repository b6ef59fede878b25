/**
 * How deep and how large a JSON message or value may be, checked without recursion so that no
 * input can overflow the stack, and before anything expensive touches it: the text of a frame is
 * scanned before `JSON.parse` (a megabyte of `[` takes V8 hundreds of milliseconds to parse), and a
 * value is measured before canonical JSON, hashing, cloning or schema checks walk it.
 */

export interface ShapeLimits {
  /** Levels of arrays and objects, the outermost included. */
  maxDepth: number;
  /** JSON values, containers included. */
  maxNodes: number;
}

export type ShapeProblem = { kind: 'depth' | 'nodes'; message: string };

/** What a scan learned: the problem, if any, and the top-level string or number members it saw. */
export interface ScanResult {
  problem: ShapeProblem | undefined;
  /** Values counted (never fewer than there are): what reading the message will cost. */
  nodes: number;
  /** Top-level `"key": "string" | number` members, so a refusal can name the message it refuses. */
  top: Record<string, string | number>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
/** Top-level members worth keeping: enough to answer a refused room request with its own id. */
const CAPTURED = new Set(['type', 'id', 'method']);
const MAX_CAPTURED_LENGTH = 200;

function depthProblem(limits: ShapeLimits): ShapeProblem {
  return { kind: 'depth', message: `more than ${limits.maxDepth} levels of nesting` };
}

function nodesProblem(limits: ShapeLimits): ShapeProblem {
  return { kind: 'nodes', message: `more than ${limits.maxNodes} values` };
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let at = open + 1;
  for (;;) {
    const close = text.indexOf('"', at);
    if (close < 0) return -1;
    let backslashes = 0;
    for (let k = close - 1; k > open && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return close;
    at = close + 1;
  }
}

function decodeCaptured(raw: string): string | number | undefined {
  if (raw.length > MAX_CAPTURED_LENGTH) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Scan JSON text for its depth and (approximate, never under-counted) number of values, in one
 * pass with no recursion. It does not validate the text: `JSON.parse` does that afterwards, on
 * text this scan let through.
 */
export function scanJsonText(text: string, limits: ShapeLimits): ScanResult {
  const top: Record<string, string | number> = {};
  let depth = 0;
  // Every value is a container, an array element or an object member: openings + commas + 1.
  let nodes = 1;
  // Inside the top-level object: whether the next string is a key, and the key whose value comes.
  let expectKey = false;
  let key: string | undefined;
  let valueStart = -1;
  const endTopValue = (end: number) => {
    if (key !== undefined && valueStart >= 0 && CAPTURED.has(key)) {
      const value = decodeCaptured(text.slice(valueStart, end).trim());
      if (value !== undefined) top[key] = value;
    }
    key = undefined;
    valueStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = stringEnd(text, i);
      if (close < 0) break;
      if (depth === 1 && expectKey) {
        key = close - i - 1 <= MAX_CAPTURED_LENGTH ? text.slice(i + 1, close) : '';
        expectKey = false;
      }
      i = close;
      continue;
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 1) valueStart = -1;
      depth++;
      nodes++;
      if (depth > limits.maxDepth) return { problem: depthProblem(limits), nodes, top };
      if (nodes > limits.maxNodes) return { problem: nodesProblem(limits), nodes, top };
      if (depth === 1 && c === OPEN_OBJECT) expectKey = true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth === 1) endTopValue(i);
      depth--;
    } else if (c === COMMA) {
      nodes++;
      if (nodes > limits.maxNodes) return { problem: nodesProblem(limits), nodes, top };
      if (depth === 1) {
        endTopValue(i);
        expectKey = true;
      }
    } else if (c === COLON && depth === 1) {
      valueStart = i + 1;
    }
  }
  return { problem: undefined, nodes, top };
}

/**
 * Measure a value already in memory (arguments handed to the room's API, a gate's rewrite) with an
 * explicit stack: its depth and number of values, stopping at the first limit it passes. Values
 * that are not JSON are left to canonical JSON to refuse.
 */
export function checkValueShape(value: unknown, limits: ShapeLimits): ShapeProblem | undefined {
  const measured = measureValue(value, limits);
  return 'problem' in measured ? measured.problem : undefined;
}

/** How many values `value` holds (when within the limits), or the first limit it passes. */
export function measureValue(value: unknown, limits: ShapeLimits): { nodes: number } | { problem: ShapeProblem } {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    nodes++;
    if (nodes > limits.maxNodes) return { problem: nodesProblem(limits) };
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limits.maxDepth) return { problem: depthProblem(limits) };
    const children = Array.isArray(current) ? current : Object.values(current as Record<string, unknown>);
    // A child that is a container adds a level; primitives cost a node each.
    if (nodes + children.length > limits.maxNodes) return { problem: nodesProblem(limits) };
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return { nodes };
}
