// toolgate/ag-ui: the two-way bridge between an AG-UI agent (@ag-ui/client 1.x) and the kit. No React.
export { createAGUIBridge, type AGUIBridge, type AGUIBridgeOptions, type AGUIRunParameters, type AGUIRunResult } from './bridge';
export type { InterruptAnswer } from './agent-answers';
export type { AGUIAgentLike, AGUIInterrupt, AGUIResumeEntry, AGUIRunFinished, AGUISubscriber, AGUITool } from './agent-types';
export type { ApprovalDecision, BridgeOptions } from '../shared/kit';
