/**
 * Fault injection (server/README.md "Faults"): lost responses and results, delays, a dropped
 * socket, a closed session, malformed frames; now, or after some more events. What a drop fault
 * dropped is kept (boundedly) as the evidence that it fired.
 */
import type { ClientFrame, FaultSpec, MalformedFrame } from '../protocol';
import type { SessionCore } from './model';

/** A frame a fault dropped: a room response that never left, or a page's message the server never acted on. */
export interface DroppedFrame {
  direction: 'to-page' | 'from-page';
  frame: Record<string, unknown>;
}

interface Trigger {
  remaining: number;
  fire: () => void;
}

/** What the faults need of their session besides its core. */
export interface FaultHost {
  dropConnection(): boolean;
  close(reason: 'fault'): void;
  /** The text of the session's last event not of type `skip`, else its last event (a malformed repeat). */
  lastEventText(skip?: string): string | undefined;
  lastCallId(): string | undefined;
  activeTurnId(): string | null;
}

export class SessionFaults {
  /** What the drop faults dropped, in order (the newest `maxDroppedKept`). */
  readonly dropped: DroppedFrame[] = [];
  private dropInvokeResponses: number;
  private dropConfirmResponses = 0;
  private dropToolResults = 0;
  /** Drop the socket right after each dropped tool.result. */
  private dropToolResultsDisconnect = false;
  private delayMs: number;
  private triggers: Trigger[] = [];

  constructor(
    private readonly core: SessionCore,
    private readonly host: FaultHost,
  ) {
    this.dropInvokeResponses = core.config.initialFaults.dropInvokeResponses;
    this.delayMs = core.config.initialFaults.responseDelayMs;
  }

  /** How long room responses wait (0: not at all). */
  get responseDelayMs(): number {
    return this.delayMs;
  }

  /** A `fault` message from the page. */
  onFrame(frame: Extract<ClientFrame, { type: 'fault' }>): void {
    if (!this.core.config.faultsEnabled) {
      this.core.sendError('FAULTS_DISABLED', 'fault injection is off on this server');
      return;
    }
    const { type: _type, ...spec } = frame;
    this.inject(spec as FaultSpec);
  }

  /** Fault injection, from the socket or from the server handle. */
  inject(spec: FaultSpec): void {
    if (this.core.closed) return;
    const later = (afterEvents: number | undefined, fire: () => void): boolean => {
      if (!afterEvents) {
        fire();
        return false;
      }
      this.triggers.push({ remaining: afterEvents, fire });
      return true;
    };
    let armed = true;
    switch (spec.fault) {
      case 'drop-invoke-response':
        this.dropInvokeResponses += spec.count ?? 1;
        break;
      case 'drop-confirm-response':
        this.dropConfirmResponses += spec.count ?? 1;
        break;
      case 'drop-tool-result':
        this.dropToolResults += spec.count ?? 1;
        this.dropToolResultsDisconnect = spec.disconnect ?? false;
        break;
      case 'delay-responses':
        this.delayMs = spec.ms;
        break;
      case 'disconnect':
        armed = later(spec.afterEvents, () => this.host.dropConnection());
        break;
      case 'close-session':
        armed = later(spec.afterEvents, () => this.host.close('fault'));
        break;
      case 'malformed':
        armed = later(spec.afterEvents, () => this.sendMalformed(spec.frame));
        break;
      case 'reset':
        this.reset();
        break;
      default:
        spec satisfies never;
    }
    if (armed && !this.core.closed) this.core.sendDirect({ type: 'fault.ack', ...spec });
  }

  /** A page's result lost on the way: the server never acts on it (the call keeps waiting). */
  dropsToolResult(frame: Extract<ClientFrame, { type: 'tool.result' }>): boolean {
    if (this.dropToolResults <= 0) return false;
    this.dropToolResults -= 1;
    this.keep({ direction: 'from-page', frame: { ...frame } });
    if (this.dropToolResultsDisconnect) this.host.dropConnection();
    return true;
  }

  /** Whether this room response is to be dropped (and kept as evidence). */
  dropsRoomResponse(method: string, response: Record<string, unknown>): boolean {
    if (method === 'invokeTool' && this.dropInvokeResponses > 0) {
      this.dropInvokeResponses -= 1;
    } else if (method === 'confirmTool' && this.dropConfirmResponses > 0) {
      this.dropConfirmResponses -= 1;
    } else {
      return false;
    }
    this.keep({ direction: 'to-page', frame: response });
    return true;
  }

  /** One more event went out: fire the triggers that were waiting for it. */
  countEvent(): void {
    if (this.triggers.length === 0) return;
    const due: Trigger[] = [];
    this.triggers = this.triggers.filter((t) => {
      t.remaining -= 1;
      if (t.remaining > 0) return true;
      due.push(t);
      return false;
    });
    for (const t of due) t.fire();
  }

  /** The session closed: nothing fires any more. */
  clear(): void {
    this.triggers = [];
  }

  /** Frames a sloppy server might send. Those that are JSON objects take a `seq`. */
  sendMalformed(frame: MalformedFrame): void {
    switch (frame) {
      case 'invalid-json':
        this.core.transmit('{"type":"tool.stream","phase":"arguments-delta","callId":');
        return;
      case 'not-an-object':
        this.core.transmit('[{"type":"tool.stream","phase":"start"}]');
        return;
      case 'unknown-phase':
        this.core.emit({ type: 'tool.stream', phase: 'rewind', callId: this.host.lastCallId() ?? 'call_0' });
        return;
      case 'missing-call-id':
        this.core.emit({ type: 'tool.stream', phase: 'progress', progress: { note: 'this event has no callId' } });
        return;
      case 'unknown-type':
        this.core.emit({ type: 'tool.teleport', note: 'an event type nobody knows' });
        return;
      case 'repeat-seq': {
        // Not a legacy preview: a page that speaks tool-stream-v1 ignores previews silently, so
        // a repeated one would test nothing (and whether it did would hang on fragment sizes).
        const last = this.host.lastEventText('tool.preview');
        if (last) this.core.transmit(last);
        return;
      }
      case 'local-event':
        // A forged local interrupt of the running turn: the page must refuse it.
        this.core.emit({ type: 'toolgate.interrupt', turnId: this.host.activeTurnId() ?? 'turn_1' });
        return;
      default:
        frame satisfies never;
    }
  }

  private reset(): void {
    this.dropInvokeResponses = 0;
    this.dropConfirmResponses = 0;
    this.dropToolResults = 0;
    this.dropToolResultsDisconnect = false;
    this.delayMs = 0;
    this.triggers = [];
  }

  private keep(frame: DroppedFrame): void {
    this.dropped.push(frame);
    if (this.dropped.length > this.core.config.limits.maxDroppedKept) this.dropped.shift();
  }
}
