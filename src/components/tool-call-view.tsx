import { memo } from 'react';
import type { ToolStreamStore } from '../core/stream/store';
import { useAppToolCall } from '../hooks/use-app-tool-call';
import { useCallApproval } from '../hooks/use-call-approval';
import type { ToolgateClock } from '../hooks/use-now';
import { useSteadyCall } from '../hooks/use-steady-call';
import { useToolCall } from '../hooks/use-tool-call';
import { useToolRenderer, type ToolRenderers } from '../provider/tool-renderers';
import type { ArgumentsSchema } from './arguments-preview';
import { ToolCallCard } from './tool-call-card';
import { ToolCallApproval, ToolCallInput, ToolRenderBoundary } from './tool-call-parts';

/**
 * Props of {@link ToolCallView}.
 *
 * @example
 * const props: ToolCallViewProps = { callId: 'c1', renderers: { search_flights: FlightCard } };
 */
export interface ToolCallViewProps {
  callId: string;
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** Renderers by tool name, before the provider's (`<ToolgateProvider renderers>`). */
  renderers?: ToolRenderers;
  /** For the default card: the tool's JSON Schema. */
  schema?: ArgumentsSchema | undefined;
  /** For the default card: the JSON Schema of the tool's output (its titles label the output's fields). */
  outputSchema?: ArgumentsSchema | undefined;
  /** For the default card: the clock of its running time. */
  clock?: ToolgateClock;
}

/**
 * One call, shown by its tool's renderer (from `renderers`, then the provider's) or, for a tool
 * without one, by `<ToolCallCard>`. The view sits in a `<ToolRenderBoundary>`: one that throws
 * shows an error card and leaves the rest of the list alone, and is tried again when the call
 * changes. Below a renderer's view the kit adds the call's inline approval and a person's input
 * (the default card has both inside). Renders nothing for an unknown call id.
 *
 * @example
 * <ToolCallView callId="c1" renderers={{ search_flights: FlightCard }} />
 */
export const ToolCallView = memo(function ToolCallView({ callId, store, renderers, schema, outputSchema, clock }: ToolCallViewProps) {
  const live = useToolCall(callId, store);
  const View = useToolRenderer(live?.name ?? '', renderers);
  // A tool's own view is held steady as the default card is (use-steady-call.ts); the card holds itself.
  const steady = useSteadyCall(live);
  const approval = useCallApproval(callId);
  const app = useAppToolCall(callId);
  if (!live) return null;
  if (!View) {
    return (
      <ToolRenderBoundary toolName={live.name} resetKey={live}>
        <ToolCallCard callId={callId} store={store} schema={schema} outputSchema={outputSchema} clock={clock} />
      </ToolRenderBoundary>
    );
  }
  if (!steady) return null;
  const call = steady;
  return (
    <>
      <ToolRenderBoundary toolName={call.name} resetKey={call}>
        <View
          call={call}
          partialArguments={call.partialArguments}
          arguments={call.arguments}
          argumentsError={undefined}
          appCall={app.call}
          result={app.result}
          approval={approval?.request ? approval : null}
        />
      </ToolRenderBoundary>
      <ToolCallApproval callId={callId} />
      <ToolCallInput callId={callId} />
    </>
  );
});
