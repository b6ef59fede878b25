/**
 * Scripted model turns. A script is what a model would answer to a prompt: one or more
 * responses (steps), each with tool calls whose argument JSON is streamed as small fragments
 * at token pace. The runner executes each call as soon as its arguments are complete and
 * starts the next step once every call of the step has its result.
 */
import type { MalformedFrame } from './protocol';

export interface ScriptCall {
  tool: string;
  /** Where the model believes the tool lives; an app call is made only if the tool is offered. */
  location: 'server' | 'app';
  /** The arguments the model writes, or a function of the turn's `params`. */
  arguments: unknown | ((params: Record<string, unknown>) => unknown);
  /** `false`: a model that does not stream arguments (start, then arguments-complete). */
  stream?: boolean;
  /** The model stops after this many characters of argument text: `failed`. */
  stopAfterChars?: number;
  /** Largest fragment, in UTF-16 code units (default 6). */
  maxFragment?: number;
  /**
   * The call runs a sub-agent (a server tool that asks `context.subagent()`): these steps are its
   * model's responses, and each of their calls starts with this call as its `parentCallId`.
   */
  subagent?: ScriptStep[];
}

export interface ScriptStep {
  calls: ScriptCall[];
  /** Parallel calls whose fragments interleave (all start first, then round-robin). */
  interleave?: boolean;
  /** Malformed frames sent after the given number of argument fragments of this step. */
  inject?: { afterFragment: number; frame: MalformedFrame }[];
}

export interface Script {
  name: string;
  description: string;
  steps: ScriptStep[];
}

/** mulberry32: small, seedable, good enough to vary fragment sizes and pacing. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Cut `text` into fragments of 1..max code units, never inside a surrogate pair (a model's
 * tokens never split a character; they may split a JSON escape, and do here).
 */
export function fragment(text: string, random: () => number, max = 6): string[] {
  const pieces: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + 1 + Math.floor(random() * Math.max(1, max)));
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    pieces.push(text.slice(i, end));
    i = end;
  }
  return pieces;
}

const WORDS = (
  'the agent streams arguments while the page renders a preview of each fragment so people can ' +
  'read what will run before it runs cancellation is cooperative and a committed effect stays ' +
  'committed confirmations bind the exact arguments by their canonical hash'
).split(' ');

/** Deterministic prose of `size` characters, with escapes and non-ASCII text on the way. */
export function longText(size: number, seed = 1): string {
  const random = createRandom(seed);
  const extras = ['"quoted"', 'naïve café', 'tab\there', 'back\\slash', '😀', '€100', 'line\nbreak'];
  const parts: string[] = [];
  let length = 0;
  while (length <= size) {
    const word = random() < 0.06 ? extras[Math.floor(random() * extras.length)]! : WORDS[Math.floor(random() * WORDS.length)]!;
    parts.push(word);
    length += word.length + 1;
  }
  let text = parts.join(' ');
  if (text.length > size) {
    text = text.slice(0, size);
    // Do not end on half a surrogate pair; keep the exact length.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = `${text.slice(0, -1)}.`;
  }
  return text;
}

function clampSize(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(16, Math.min(2_000_000, Math.floor(value))) : fallback;
}

export const BUILT_IN_SCRIPTS: readonly Script[] = [
  {
    name: 'search',
    description: 'A low-risk server tool with progress: search_docs.',
    steps: [{ calls: [{ tool: 'search_docs', location: 'server', arguments: { query: 'rotate api keys', limit: 3 } }] }],
  },
  {
    name: 'no-stream',
    description: 'A model that does not stream arguments: start, then arguments-complete.',
    steps: [{ calls: [{ tool: 'lookup_order', location: 'server', stream: false, arguments: { orderId: 'ord_1042' } }] }],
  },
  {
    name: 'stop',
    description: 'The model stops in the middle of the arguments: failed.',
    steps: [
      {
        calls: [
          {
            tool: 'search_docs',
            location: 'server',
            stopAfterChars: 24,
            arguments: { query: 'refund policy for orders above 500 EUR', limit: 5 },
          },
        ],
      },
    ],
  },
  {
    name: 'long',
    description: 'A long argument (params.size characters, 6000 by default) for the app tool insert_text.',
    steps: [
      {
        calls: [
          {
            tool: 'insert_text',
            location: 'app',
            maxFragment: 12,
            arguments: (params: Record<string, unknown>) => ({
              position: 'end',
              text: longText(clampSize(params.size, 6000)),
            }),
          },
        ],
      },
    ],
  },
  {
    name: 'parallel',
    description: 'Parallel calls in one response, their fragments interleaved: three server tools and an app tool.',
    steps: [
      {
        interleave: true,
        calls: [
          { tool: 'get_weather', location: 'server', arguments: { city: 'Lisbon' } },
          { tool: 'get_weather', location: 'server', arguments: { city: 'Oslo', unit: 'C' } },
          { tool: 'search_docs', location: 'server', arguments: { query: 'incident runbook' } },
          { tool: 'set_title', location: 'app', arguments: { title: 'Weather and incidents' } },
        ],
      },
    ],
  },
  {
    name: 'edit',
    description: 'Three app-tool calls, run one at a time in order: set_title, then insert_text twice.',
    steps: [
      {
        calls: [
          { tool: 'set_title', location: 'app', arguments: { title: 'Release notes' } },
          { tool: 'insert_text', location: 'app', arguments: { position: 'end', text: '## Highlights\nFaster previews.' } },
          { tool: 'insert_text', location: 'app', arguments: { position: 'end', text: '\n## Fixes\nNo call is shown twice.' } },
        ],
      },
    ],
  },
  {
    name: 'deploy',
    description: 'A high-risk server tool: the gate pins version "latest" and waits for approval.',
    steps: [
      {
        calls: [
          {
            tool: 'deploy_service',
            location: 'server',
            arguments: (params: Record<string, unknown>) => ({
              service: 'billing',
              version: 'latest',
              environment: params.environment === 'staging' ? 'staging' : 'production',
            }),
          },
        ],
      },
    ],
  },
  {
    name: 'write',
    description: 'A write through the room: the app tool send_invoice (the page confirms and invokes it in the room).',
    steps: [
      {
        calls: [
          {
            tool: 'send_invoice',
            location: 'app',
            arguments: { customerId: 'c_101', amount: 1250, currency: 'EUR', memo: 'Consulting, March' },
          },
        ],
      },
    ],
  },
  {
    name: 'email',
    description: 'A medium-risk server tool that writes without the gate: send_email.',
    steps: [
      {
        calls: [
          {
            tool: 'send_email',
            location: 'server',
            arguments: { to: 'ada@example.com', subject: 'Your invoice', body: 'Attached, as discussed.' },
          },
        ],
      },
    ],
  },
  {
    name: 'invalid',
    description: 'Arguments that fail the server tool’s schema: INVALID, nothing runs.',
    steps: [{ calls: [{ tool: 'search_docs', location: 'server', arguments: { query: '', limit: 50 } }] }],
  },
  {
    name: 'unknown-tool',
    description: 'The model calls a tool nobody hosts: FAILED.',
    steps: [{ calls: [{ tool: 'open_pod_bay_doors', location: 'server', arguments: { pod: 1 } }] }],
  },
  {
    name: 'malformed',
    description: 'A normal call with malformed frames between its fragments.',
    steps: [
      {
        calls: [{ tool: 'search_docs', location: 'server', maxFragment: 3, arguments: { query: 'deploying a service' } }],
        inject: [
          { afterFragment: 2, frame: 'unknown-phase' },
          { afterFragment: 3, frame: 'missing-call-id' },
          { afterFragment: 4, frame: 'invalid-json' },
          { afterFragment: 5, frame: 'unknown-type' },
          { afterFragment: 6, frame: 'not-an-object' },
          { afterFragment: 7, frame: 'repeat-seq' },
        ],
      },
    ],
  },
  {
    name: 'research',
    description: 'A research tool whose sub-agent makes three calls of its own (nested under it); the refund waits for approval.',
    steps: [
      {
        calls: [
          {
            tool: 'research',
            location: 'server',
            arguments: { question: 'Can order ord_1042 be refunded?' },
            subagent: [
              {
                interleave: true,
                calls: [
                  { tool: 'search_docs', location: 'server', arguments: { query: 'refund policy' } },
                  { tool: 'lookup_order', location: 'server', arguments: { orderId: 'ord_1042' } },
                ],
              },
              {
                calls: [
                  {
                    tool: 'issue_refund',
                    location: 'server',
                    arguments: { orderId: 'ord_1042', amount: 129.9, currency: 'EUR', reason: 'Arrived damaged' },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'payment',
    description: 'schedule_payment behind an editable approval that expires (params.approvalTtlMs, 2 minutes by default): edit the payee or the amount, then approve.',
    steps: [{ calls: [{ tool: 'schedule_payment', location: 'server', arguments: { to: 'Acme Supplies', amount: 420 } }] }],
  },
  {
    name: 'reminders',
    description: 'Two send_reminder calls, one after the other, each asked for: allow it for the session and the second is answered by the grant.',
    steps: [
      { calls: [{ tool: 'send_reminder', location: 'server', arguments: { to: 'ada@example.com', text: 'Invoice 17 is due on Friday.' } }] },
      { calls: [{ tool: 'send_reminder', location: 'server', arguments: { to: 'grace@example.com', text: 'Invoice 18 is due on Monday.' } }] },
    ],
  },
  {
    name: 'several',
    description: 'Three send_reminder calls in one response: three requests wait at once, to decide together.',
    steps: [
      {
        interleave: true,
        calls: [
          { tool: 'send_reminder', location: 'server', arguments: { to: 'ada@example.com', text: 'Invoice 17 is due on Friday.' } },
          { tool: 'send_reminder', location: 'server', arguments: { to: 'grace@example.com', text: 'Invoice 18 is due on Monday.' } },
          { tool: 'send_reminder', location: 'server', arguments: { to: 'alan@example.com', text: 'Invoice 19 is overdue.' } },
        ],
      },
    ],
  },
  {
    name: 'tour',
    description: 'Three responses: search, write what was found into the document, then a staging deploy behind approval.',
    steps: [
      { calls: [{ tool: 'search_docs', location: 'server', arguments: { query: 'deploying a service' } }] },
      {
        calls: [
          {
            tool: 'insert_text',
            location: 'app',
            arguments: { position: 'end', text: 'Deploy to staging first; production needs approval.' },
          },
        ],
      },
      {
        calls: [
          { tool: 'deploy_service', location: 'server', arguments: { service: 'web', version: 'latest', environment: 'staging' } },
        ],
      },
    ],
  },
];
