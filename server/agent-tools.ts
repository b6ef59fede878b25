/**
 * The agent's server tools (docs/protocol.md, "The agent's side": run in the agent's session, declare a risk, report
 * progress with `context.emit()`, are cancelled by their AbortSignal) and the default
 * before-tool-call gate.
 */
import type { ToolLocation, ToolRisk } from './protocol';
import type { JsonSchema } from './schema';

export interface ServerToolContext {
  signal: AbortSignal;
  callId: string;
  turnId: string;
  epoch: number;
  /** Report progress: a `tool.stream` progress event (application data). */
  emit(progress: unknown): void;
  /** Wait, scaled by the turn's pacing; `false` when the call was cancelled meanwhile. */
  sleep(ms: number): Promise<boolean>;
  /**
   * Record the tool's external effect at its commit point. After this, cancelling the call
   * cannot undo it (cancellation is cooperative: docs/protocol.md, "App tools").
   */
  commit(summary: unknown): void;
  /**
   * Run the sub-agent the script gave this call, if any: its calls stream and run like the
   * turn's own, each with this call as its `parentCallId`. Resolves with how each of them ended.
   */
  subagent?: () => Promise<SubagentReport>;
}

/** What a sub-agent did: each of its calls and how it ended. */
export interface SubagentReport {
  calls: { callId: string; name: string; ok: boolean; code?: string }[];
}

export interface ServerTool {
  name: string;
  description: string;
  parameters: JsonSchema;
  risk: ToolRisk;
  effect: 'read' | 'write';
  run(args: Record<string, unknown>, context: ServerToolContext): Promise<unknown>;
}

/** What the gate sees of a call, after its arguments are complete. */
export interface GateCall {
  sessionId: string;
  callId: string;
  turnId: string;
  name: string;
  location: ToolLocation;
  risk?: ToolRisk;
  effect?: 'read' | 'write';
  arguments: unknown;
  /** The turn's script parameters (`turn.start` `params`), e.g. `approvalTtlMs`. */
  params: Readonly<Record<string, unknown>>;
}

/**
 * The before-tool-call gate (docs/protocol.md, "The agent's side"): allow a call, reject it, or rewrite its arguments; `confirm`
 * waits for the page's on-screen approval of the (possibly rewritten) arguments.
 */
export type GateDecision =
  | { action: 'allow'; arguments?: unknown }
  | { action: 'reject'; message?: string }
  | {
      action: 'confirm';
      arguments?: unknown;
      /** The person may edit the arguments before approving; the edit is validated against the tool's schema and runs exactly. */
      editable?: boolean;
      /** The request ends unanswered after this many ms (`expiresAt` on the request); a later decision changes nothing. */
      expiresInMs?: number;
    };

export type BeforeToolCall = (call: GateCall) => GateDecision | Promise<GateDecision>;

/** Versions the gate resolves `latest` to: what will run, shown in the approval request. */
const LATEST_RELEASE: Record<string, string> = { billing: '2.7.1', search: '4.12.0', web: '10.3.2' };

/** How long a `schedule_payment` request waits for a person unless the turn says otherwise. */
export const PAYMENT_APPROVAL_TTL_MS = 120_000;

/** The turn's `params.approvalTtlMs` when it is a sensible time (1 s to 1 hour), else the default. */
function approvalTtlOf(params: Readonly<Record<string, unknown>>): number {
  const ttl = params.approvalTtlMs;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl >= 1_000 && ttl <= 3_600_000 ? Math.floor(ttl) : PAYMENT_APPROVAL_TTL_MS;
}

/**
 * High-risk calls wait for approval. For `deploy_service` the gate also pins `version:
 * "latest"` to a concrete release, so the arguments approved (and run) differ from the ones
 * the model wrote: the approval request carries the rewritten ones. A `schedule_payment` request
 * is editable (the person may change the payee or the amount; the edit is checked against the
 * tool's schema and runs exactly) and expires (`params.approvalTtlMs`, 2 minutes by default).
 * `send_reminder` (medium risk) is asked too, so that a person may allow it for the session.
 */
export const defaultBeforeToolCall: BeforeToolCall = (call) => {
  if (call.name === 'send_reminder') return { action: 'confirm' };
  if (call.risk !== 'high') return { action: 'allow' };
  const args = call.arguments;
  if (call.name === 'deploy_service' && isRecord(args) && args.version === 'latest') {
    const service = typeof args.service === 'string' ? args.service : '';
    return { action: 'confirm', arguments: { ...args, version: LATEST_RELEASE[service] ?? '1.0.0' } };
  }
  if (call.name === 'schedule_payment') return { action: 'confirm', editable: true, expiresInMs: approvalTtlOf(call.params ?? {}) };
  return { action: 'confirm' };
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const DOCS = [
  { id: 'doc-1', title: 'Rotating API keys', snippet: 'Keys rotate every 90 days; the old key stays valid for 24 hours.' },
  { id: 'doc-2', title: 'Refund policy', snippet: 'Refunds above 500 EUR need a second approver.' },
  { id: 'doc-3', title: 'Deploying a service', snippet: 'Deploy to staging first; production needs approval.' },
  { id: 'doc-4', title: 'Incident runbook', snippet: 'Page the on-call engineer, then open an incident channel.' },
];

export function builtInServerTools(): ServerTool[] {
  return [
    {
      name: 'search_docs',
      description: 'Search the knowledge base.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1, maximum: 10 } },
        required: ['query'],
        additionalProperties: false,
      },
      risk: 'low',
      effect: 'read',
      async run(args, ctx) {
        const words = String(args.query).toLowerCase().split(/\W+/).filter(Boolean);
        const stages = ['expanding query', 'searching index', 'ranking results'];
        for (const [i, stage] of stages.entries()) {
          ctx.emit({ stage, step: i + 1, of: stages.length });
          if (!(await ctx.sleep(250))) return null;
        }
        const hits = DOCS.filter((d) => words.some((w) => `${d.title} ${d.snippet}`.toLowerCase().includes(w)));
        return { hits: hits.slice(0, typeof args.limit === 'number' ? args.limit : 3) };
      },
    },
    {
      name: 'lookup_order',
      description: 'Read an order by id.',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string', minLength: 1 } },
        required: ['orderId'],
        additionalProperties: false,
      },
      risk: 'low',
      effect: 'read',
      async run(args, ctx) {
        ctx.emit({ stage: 'loading order' });
        if (!(await ctx.sleep(200))) return null;
        return { orderId: args.orderId, status: 'shipped', items: 3, total: { amount: 129.9, currency: 'EUR' } };
      },
    },
    {
      name: 'get_weather',
      description: 'Current weather for a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 1 }, unit: { type: 'string', enum: ['C', 'F'] } },
        required: ['city'],
        additionalProperties: false,
      },
      risk: 'low',
      effect: 'read',
      async run(args, ctx) {
        ctx.emit({ stage: 'asking the weather service' });
        if (!(await ctx.sleep(300))) return null;
        return { city: args.city, temperature: 18, unit: args.unit ?? 'C', sky: 'partly cloudy' };
      },
    },
    {
      name: 'deploy_service',
      description: 'Deploy a service release to an environment.',
      parameters: {
        type: 'object',
        properties: {
          service: { type: 'string', enum: ['billing', 'search', 'web'] },
          version: { type: 'string', minLength: 1 },
          environment: { type: 'string', enum: ['staging', 'production'] },
        },
        required: ['service', 'version', 'environment'],
        additionalProperties: false,
      },
      risk: 'high',
      effect: 'write',
      async run(args, ctx) {
        const steps = ['building image', 'pushing image', 'running migrations', 'switching traffic'];
        for (const [i, step] of steps.entries()) {
          // docs/protocol.md, "App tools": check the signal after every await and right before committing.
          if (ctx.signal.aborted) return null;
          ctx.emit({ step, done: i, of: steps.length, percent: Math.round((i / steps.length) * 100) });
          if (!(await ctx.sleep(500))) return null;
        }
        if (ctx.signal.aborted) return null;
        const receipt = { deploymentId: `dep-${ctx.callId}`, service: args.service, version: args.version, environment: args.environment };
        ctx.commit(receipt);
        ctx.emit({ step: 'done', done: steps.length, of: steps.length, percent: 100 });
        return receipt;
      },
    },
    {
      name: 'research',
      description: 'Research a question with a sub-agent that calls tools of its own.',
      parameters: {
        type: 'object',
        properties: { question: { type: 'string', minLength: 1 } },
        required: ['question'],
        additionalProperties: false,
      },
      risk: 'low',
      effect: 'read',
      async run(args, ctx) {
        ctx.emit({ stage: 'the sub-agent is at work' });
        const report = ctx.subagent ? await ctx.subagent() : { calls: [] };
        if (ctx.signal.aborted) return null;
        return { question: args.question, ...report };
      },
    },
    {
      name: 'issue_refund',
      description: 'Refund an order (a payment leaves the company).',
      parameters: {
        type: 'object',
        properties: {
          orderId: { type: 'string', minLength: 1 },
          amount: { type: 'number', minimum: 0.01 },
          currency: { type: 'string', enum: ['EUR', 'USD'] },
          reason: { type: 'string' },
        },
        required: ['orderId', 'amount', 'currency'],
        additionalProperties: false,
      },
      risk: 'high',
      effect: 'write',
      async run(args, ctx) {
        ctx.emit({ stage: 'refunding' });
        if (!(await ctx.sleep(300))) return null;
        if (ctx.signal.aborted) return null;
        const receipt = { refundId: `ref-${ctx.callId}`, orderId: args.orderId, amount: args.amount, currency: args.currency };
        ctx.commit(receipt);
        return receipt;
      },
    },
    {
      name: 'send_email',
      description: 'Send an email on the user’s behalf.',
      parameters: {
        type: 'object',
        properties: {
          to: { type: 'string', minLength: 3 },
          subject: { type: 'string', minLength: 1 },
          body: { type: 'string' },
        },
        required: ['to', 'subject', 'body'],
        additionalProperties: false,
      },
      risk: 'medium',
      effect: 'write',
      async run(args, ctx) {
        ctx.emit({ stage: 'sending' });
        if (!(await ctx.sleep(300))) return null;
        if (ctx.signal.aborted) return null;
        const receipt = { messageId: `msg-${ctx.callId}`, to: args.to };
        ctx.commit(receipt);
        return receipt;
      },
    },
    {
      name: 'schedule_payment',
      description: 'Schedule a payment to a payee (money leaves the company).',
      parameters: {
        type: 'object',
        properties: {
          to: { type: 'string', minLength: 1, description: 'Who is paid' },
          amount: { type: 'number', minimum: 0.01, maximum: 10_000, description: 'In EUR' },
        },
        required: ['to', 'amount'],
        additionalProperties: false,
      },
      risk: 'high',
      effect: 'write',
      async run(args, ctx) {
        ctx.emit({ stage: 'scheduling' });
        if (!(await ctx.sleep(300))) return null;
        if (ctx.signal.aborted) return null;
        const receipt = { paymentId: `pay-${ctx.callId}`, to: args.to, amount: args.amount, currency: 'EUR' };
        ctx.commit(receipt);
        return receipt;
      },
    },
    {
      name: 'send_reminder',
      description: 'Send a short payment reminder to a customer.',
      parameters: {
        type: 'object',
        properties: { to: { type: 'string', minLength: 3 }, text: { type: 'string', minLength: 1 } },
        required: ['to', 'text'],
        additionalProperties: false,
      },
      risk: 'medium',
      effect: 'write',
      async run(args, ctx) {
        ctx.emit({ stage: 'sending' });
        if (!(await ctx.sleep(200))) return null;
        if (ctx.signal.aborted) return null;
        const receipt = { reminderId: `rem-${ctx.callId}`, to: args.to };
        ctx.commit(receipt);
        return receipt;
      },
    },
  ];
}
