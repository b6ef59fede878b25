/**
 * The epoch gate (docs/protocol.md, "App tools"; docs/protocol.md, "The session"): the
 * server stamps each call with its epoch, and a local interrupt raises the floor past the
 * interrupted turn's epoch, so a call from an older epoch never runs. Turns interrupted lately are
 * remembered too: a late call of such a turn never runs, whatever epoch it names.
 *
 * Epochs are safe integers, compared exactly. Beyond 2^53 two epochs can be the same number, and
 * raising the floor to "epoch + 1" would round back to the epoch it was meant to end. The floor
 * itself may reach 2^53 (`Number.MAX_SAFE_INTEGER + 1`, exact) after an interrupt at the largest
 * epoch: every epoch a call can carry is below it, and nothing is ever added to it.
 */

/** How many turns keep their epoch (the most recently used); an older turn falls back to the newest epoch seen. */
const TURNS_KEPT = 1000;
/** How many interrupted turns are remembered by id (the latest). */
const INTERRUPTED_KEPT = 100;

/** The gate: its floor, what it refuses, and how an interrupt raises it. */
export interface EpochGate {
  /** The epoch floor: calls from a lower epoch never run. */
  readonly floor: number;
  /**
   * Why a call of this turn and epoch is refused before anything else about it is looked at (its
   * turn is dead: INTERRUPTED), or `undefined`. Takes raw, unchecked fields.
   */
  refusal(turnId: unknown, epoch: unknown): string | undefined;
  /** True when an admitted call has fallen below the floor since (it must not start). */
  isBelowFloor(epoch: number): boolean;
  /** Note a call that passed the gate: its turn's epoch and the newest epoch seen. */
  admit(turnId: string, epoch: number): void;
  /** Raise the floor past `turnId`'s epoch (the newest seen without a turn) and remember the turn. */
  interrupt(turnId: string | undefined): void;
  /** Why an open call of `turnId` at `epoch` is aborted by the interrupt of `interrupted`, or `undefined` when it is not. */
  abortReasonFor(call: { turnId: string; epoch: number }, interrupted: string | undefined): string | undefined;
  /** Forget every turn (on close). The floor stays. */
  clear(): void;
}

/**
 * Epochs are safe integers.
 *
 * @example
 * isEpoch(3) // true
 * isEpoch(2 ** 53) // false: 2^53 and 2^53 + 1 are the same number
 */
export function isEpoch(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

/** A short text for an epoch that was refused. */
export function describeEpoch(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return value === null ? 'null' : `a ${typeof value}`;
}

/**
 * A gate whose floor starts at `floor` (a safe integer: checked here, as an option of the host).
 *
 * @example
 * const gate = createEpochGate(0);
 * gate.admit('t1', 4);
 * gate.interrupt('t1');
 * gate.floor // 5
 */
export function createEpochGate(initialFloor: number | undefined): EpochGate {
  if (initialFloor !== undefined && !isEpoch(initialFloor)) {
    throw new TypeError(`epoch must be a safe integer (the starting floor), not ${describeEpoch(initialFloor)}`);
  }
  let floor = initialFloor ?? 0;
  let highest = floor - 1;
  /** Each recent turn's newest epoch, in order of last use. */
  const turnEpochs = new Map<string, number>();
  const interruptedTurns = new Set<string>();

  return {
    get floor() {
      return floor;
    },
    refusal(turnId, epoch) {
      // Only an epoch the gate can compare exactly says the call is stale; any other is malformed
      // (the host answers INVALID), unless the turn itself is known to be dead.
      if (isEpoch(epoch) && epoch < floor) {
        return `the call's epoch ${epoch} is below the gate's floor ${floor}: its turn was interrupted`;
      }
      if (typeof turnId === 'string' && interruptedTurns.has(turnId)) return `turn ${turnId} was interrupted`;
      return undefined;
    },
    isBelowFloor: (epoch) => epoch < floor,
    admit(turnId, epoch) {
      if (epoch > highest) highest = epoch;
      const turnEpoch = Math.max(turnEpochs.get(turnId) ?? epoch, epoch);
      turnEpochs.delete(turnId); // re-insert: the map stays in order of last use
      turnEpochs.set(turnId, turnEpoch);
      if (turnEpochs.size > TURNS_KEPT) {
        // Only recent turns get interrupted; an old one falls back to the newest epoch seen.
        const oldest = turnEpochs.keys().next().value;
        if (oldest !== undefined) turnEpochs.delete(oldest);
      }
    },
    interrupt(turnId) {
      // Past the interrupted turn's epoch, or the newest seen when the turn has not reached the
      // page yet or every turn is interrupted. A safe integer plus one is exact.
      const turnEpoch = turnId === undefined ? highest : (turnEpochs.get(turnId) ?? highest);
      if (turnEpoch + 1 > floor) floor = turnEpoch + 1;
      if (turnId !== undefined) {
        interruptedTurns.add(turnId);
        if (interruptedTurns.size > INTERRUPTED_KEPT) {
          const oldest = interruptedTurns.values().next().value;
          if (oldest !== undefined) interruptedTurns.delete(oldest);
        }
      }
      for (const [turn, epoch] of turnEpochs) if (epoch < floor) turnEpochs.delete(turn);
    },
    abortReasonFor(call, interrupted) {
      // Every open call below the new floor goes too: it could never run anyway.
      if (interrupted === undefined || call.turnId === interrupted) return `turn ${call.turnId} was interrupted`;
      if (call.epoch < floor) return `the call's epoch ${call.epoch} is below the gate's floor ${floor}`;
      return undefined;
    },
    clear() {
      turnEpochs.clear();
      interruptedTurns.clear();
    },
  };
}
