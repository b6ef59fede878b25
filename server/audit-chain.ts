/**
 * The reference server's own audit chain of one session: the same records as the page's audit
 * log (requested, decided, ran, settled; each with the SHA-256 of the record before it), made from
 * what the server itself saw and did, so that a test can hold the page's chain against it.
 *
 * Its canonical JSON and hashing are the server's own (`jcs.ts`), not the kit's, so that a bug in
 * one cannot hide in both (docs/architecture.md, "The reference server"); the kit's
 * `verifyAuditLog` must still accept the chain, and a test checks that it does.
 */
import { canonicalize, fingerprintOf, sha256Hex } from './jcs';

/** Who decided, as far as the server can tell from the page's answer (`automatic`: a standing grant). */
export type ServerAuditDecider = 'person' | 'grant';

export type ServerAuditRecord = {
  readonly seq: number;
  readonly prev: string | null;
  readonly hash: string;
  readonly callId: string;
  readonly at: number;
} & (
  | { readonly type: 'requested'; readonly toolName: string; readonly definitionFingerprint: string | null; readonly argumentsFingerprint: string; readonly arguments: unknown }
  | { readonly type: 'decided'; readonly kind: 'approve' | 'deny' | 'respond' | 'cancel'; readonly by: ServerAuditDecider; readonly ruleId: string | null; readonly reason: string | null }
  | { readonly type: 'ran'; readonly argumentsFingerprint: string }
  | { readonly type: 'settled'; readonly code: string; readonly outputFingerprint: string | null }
);

type Body = Record<string, unknown> & { type: ServerAuditRecord['type']; callId: string };

/**
 * One session's chain. Bounded: past `maxRecords` nothing more is kept and `dropped` counts what
 * was not (a chain cannot forget its oldest records and still verify from its start).
 */
export class AuditChain {
  private readonly kept: ServerAuditRecord[] = [];
  private head: string | null = null;
  /** Records not kept because the chain was full. */
  dropped = 0;
  /** Calls that involved a decision: only they get `ran` and `settled` records. */
  private readonly decidedCalls = new Set<string>();

  constructor(
    private readonly now: () => number,
    private readonly maxRecords: number,
  ) {}

  get records(): readonly ServerAuditRecord[] {
    return this.kept;
  }

  requested(callId: string, toolName: string, args: unknown, argumentsFingerprint: string, definitionFingerprint: string | null): void {
    this.append({ type: 'requested', callId, toolName, definitionFingerprint, argumentsFingerprint, arguments: structuredClone(args) });
  }

  decided(callId: string, kind: 'approve' | 'deny' | 'respond' | 'cancel', by: ServerAuditDecider, reason?: string): void {
    this.decidedCalls.add(callId);
    this.append({ type: 'decided', callId, kind, by, ruleId: null, reason: reason ?? null });
  }

  /** What runs after a decision: its fingerprint. Calls that were never decided are not recorded. */
  ran(callId: string, args: unknown): void {
    if (!this.decidedCalls.has(callId)) return;
    let argumentsFingerprint: string;
    try {
      argumentsFingerprint = fingerprintOf(args);
    } catch {
      return;
    }
    this.append({ type: 'ran', callId, argumentsFingerprint });
  }

  /** The call's one result, once, for a call that was decided. `output` only for a success. */
  settled(callId: string, code: string, output?: unknown): void {
    if (!this.decidedCalls.delete(callId)) return;
    let outputFingerprint: string | null = null;
    if (output !== undefined) {
      try {
        outputFingerprint = fingerprintOf(output);
      } catch {
        outputFingerprint = null;
      }
    }
    this.append({ type: 'settled', callId, code, outputFingerprint });
  }

  private append(fields: Body): void {
    if (this.kept.length >= this.maxRecords) {
      this.dropped++;
      return;
    }
    const body = { ...fields, at: this.now(), seq: this.kept.length, prev: this.head };
    const hash = sha256Hex(canonicalize(body));
    this.kept.push(Object.freeze({ ...body, hash }) as ServerAuditRecord);
    this.head = hash;
  }
}

/**
 * The fingerprint of a tool's definition as the page computes it from an approval request: its
 * name, description, parameters and the descriptor the request gives (`effect` when declared, the
 * risk, and that it needs confirmation). A definition that is not JSON has none (`null`).
 */
export function definitionFingerprintOf(definition: { name: string; description?: string | undefined; parameters?: unknown; effect?: 'read' | 'write' | undefined; risk: string }): string | null {
  try {
    return fingerprintOf({
      name: definition.name,
      description: definition.description ?? null,
      parameters: definition.parameters ?? null,
      descriptor: { ...(definition.effect === undefined ? {} : { effect: definition.effect }), risk: definition.risk, requiresConfirmation: true },
    });
  } catch {
    return null;
  }
}
