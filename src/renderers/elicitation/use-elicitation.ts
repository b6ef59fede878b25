/**
 * A queue of elicitation requests for one `<ElicitationDialog>`: an MCP client's request handler
 * awaits `elicit(params)`, the dialog shows the first request, and `respond` answers it and shows
 * the next. A request the kit cannot show is refused at once (the promise rejects with the reason).
 */
import { useCallback, useRef, useState } from 'react';
import { readElicitationRequest, type ElicitationRequest, type ElicitResult } from './elicitation-request';

interface Waiting {
  request: ElicitationRequest;
  resolve: (result: ElicitResult) => void;
}

/**
 * What {@link useElicitation} returns.
 *
 * @example
 * const { request, elicit, respond }: Elicitation = useElicitation();
 */
export interface Elicitation {
  /** The request shown now, or `null`. */
  request: ElicitationRequest | null;
  /** Ask the person (MCP `elicitation/create` params); resolves with their answer. */
  elicit: (params: unknown) => Promise<ElicitResult>;
  /** Answer the shown request. */
  respond: (result: ElicitResult) => void;
}

/**
 * Elicitation requests, one at a time, for `<ElicitationDialog>`.
 *
 * @example
 * const { request, elicit, respond } = useElicitation();
 * // with the MCP SDK: client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params));
 * <ElicitationDialog request={request} onResult={respond} />
 */
export function useElicitation(): Elicitation {
  const queue = useRef<Waiting[]>([]);
  const [request, setRequest] = useState<ElicitationRequest | null>(null);
  const elicit = useCallback((params: unknown): Promise<ElicitResult> => {
    const read = readElicitationRequest(params);
    if (!read.ok) return Promise.reject(new Error(`elicitation refused: ${read.reason}`));
    return new Promise<ElicitResult>((resolve) => {
      queue.current.push({ request: read.request, resolve });
      if (queue.current.length === 1) setRequest(read.request);
    });
  }, []);
  const respond = useCallback((result: ElicitResult): void => {
    const first = queue.current.shift();
    if (first === undefined) return;
    first.resolve(result);
    setRequest(queue.current[0]?.request ?? null);
  }, []);
  return { request, elicit, respond };
}
