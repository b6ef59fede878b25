/**
 * `toolgate/otel`: OpenTelemetry spans for a client's tool calls (GenAI semantic conventions plus
 * approval attributes). Loaded only by apps that import it; `@opentelemetry/api` is an optional peer.
 */
export { instrumentToolgate, TOOLGATE_SPAN_ATTRIBUTES, type InstrumentToolgateOptions } from './instrument-toolgate';
