/**
 * `toolgate/json`: the JSON the kit reads and proves things with, for servers, tests and tools
 * that must agree with it byte for byte: the incremental argument parser, canonical JSON
 * (RFC 8785), fingerprints, and the diff a person reads before approving an edit. No React.
 */
export { createArgumentsParser, parsePartialArguments, type ArgumentsParser } from './arguments-parser';
export { CanonicalJsonError, canonicalJson } from './canonical-json';
export { fingerprintJson, formatFingerprint, type Fingerprint } from './fingerprint';
export { diffJson, formatJsonPath, type JsonChange, type JsonDiff, type JsonDiffOptions, type JsonPathStep } from './json-diff';
