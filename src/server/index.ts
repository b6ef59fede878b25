// toolgate/server: signed approvals for any server (WebCrypto only: Node, Deno, edge runtimes).
// No React and no Node-only API; each name is described in docs/api.md (a test holds the two equal).
export {
  MIN_SECRET_BYTES,
  createApprovalSigner,
  type ApprovalClaims,
  type ApprovalRefusalReason,
  type ApprovalSignRequest,
  type ApprovalSigner,
  type ApprovalSignerOptions,
  type ApprovalTokenDecision,
  type ApprovalVerification,
} from './approval-signer';
export { createMemoryTokenStore, type MemoryTokenStore, type MemoryTokenStoreOptions, type SpentTokenStore } from './spent-tokens';

// Definition fingerprints: what a grant or a signed approval binds to, computed the same on both sides
export {
  changedDefinitionParts,
  fingerprintToolDefinition,
  type DefinitionFingerprint,
  type ToolDefinition,
  type ToolDefinitionPart,
} from '../core/approval/tool-definition';
