import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ToolCallList } from 'toolgate';
import {
  createAISDKAdapter,
  createAnthropicAdapter,
  createCohereAdapter,
  createGeminiAdapter,
  createOpenAIChatAdapter,
  createOpenAIRealtimeAdapter,
  createOpenAIResponsesAdapter,
  type ToolStreamAdapter,
} from 'toolgate/adapters';
import { pause } from 'toolgate/testing';
import { Live } from './support/scenarios';
import openAIChat from '../test/fixtures/real-streams/openai-chat-gpt4o-parallel-weather-stock.jsonl?raw';
import openAIResponses from '../test/fixtures/real-streams/openai-responses-codex-4-steps-3-calls.jsonl?raw';
import openAIRealtime from '../test/fixtures/real-streams/openai-realtime-gpt-realtime-weather.jsonl?raw';
import anthropic from '../test/fixtures/real-streams/anthropic-sonnet-parallel-glob-ls.jsonl?raw';
import anthropicCut from '../test/fixtures/real-streams/anthropic-truncated-max-tokens-invalid.jsonl?raw';
import gemini from '../test/fixtures/real-streams/gemini-vertex-partialargs-nested-1kb.jsonl?raw';
import cohere from '../test/fixtures/real-streams/cohere-v2-parallel-tool-call-delta.jsonl?raw';
import aiSdk from '../test/fixtures/real-streams/aisdk-ui-langgraph-gpt5-parallel.jsonl?raw';

interface Args {
  /** How fast the recording replays: 1 is one chunk every 40 ms (instant when run as a test). */
  speed: number;
}

/**
 * Real recorded provider streams (from public projects' test fixtures, see
 * test/fixtures/real-streams) replayed live through `toolgate/adapters` into `<ToolCallList>`:
 * the same chunks, in the same order, that the provider sent.
 */
const meta = {
  title: 'Adapters/Provider streams',
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** The recording's chunks through the adapter: toolgate events with a pause between chunks. */
function replayRecording(recording: string, adapter: ToolStreamAdapter): unknown[] {
  const items: unknown[] = [];
  for (const line of recording.split('\n')) {
    if (line.trim() === '') continue;
    const events = adapter.push(JSON.parse(line));
    if (events.length > 0) items.push(...events, pause(40));
  }
  items.push(...adapter.end());
  return items;
}

/** The statuses the events end each call with, to compare with what the list shows. */
function finalStatuses(items: readonly unknown[]): string[] {
  const last = new Map<string, string>();
  for (const item of items) {
    const event = item as { type?: string; phase?: string; callId?: string };
    if (event.type !== 'tool.stream' || event.callId === undefined) continue;
    const status = ({ start: 'pending', 'arguments-delta': 'streaming', 'arguments-complete': 'issued', settled: 'settled', cancelled: 'cancelled', failed: 'failed' } as Record<string, string>)[event.phase ?? ''];
    if (status !== undefined) last.set(event.callId, status);
  }
  return [...last.values()];
}

function providerStory(recording: string, makeAdapter: () => ToolStreamAdapter, shows: RegExp): Story {
  const items = () => replayRecording(recording, makeAdapter());
  return {
    render: ({ speed }) => (
      <Live items={items} speed={speed}>
        <ToolCallList />
      </Live>
    ),
    play: async ({ canvasElement }) => {
      const expected = finalStatuses(items());
      await expect(expected.length).toBeGreaterThan(0);
      await waitFor(
        () => expect(within(canvasElement).queryAllByRole('article').map((card) => card.dataset['status'])).toEqual(expected),
        { timeout: 20_000 },
      );
      await expect(canvasElement).toHaveTextContent(shows);
    },
  };
}

/** OpenAI Chat Completions, gpt-4o: two parallel calls by `tool_calls` index. */
export const OpenAIChat = providerStory(openAIChat, () => createOpenAIChatAdapter(), /GetWeatherArgs[\s\S]*get_stock_price/);

/** OpenAI Responses API, gpt-5.1-codex-max: four responses in a row, three calls kept apart. */
export const OpenAIResponses = providerStory(openAIResponses, () => createOpenAIResponsesAdapter(), /Turn 3[\s\S]*calculator/);

/** OpenAI Realtime API over WebSocket, gpt-realtime: server events with pretty-printed arguments. */
export const OpenAIRealtime = providerStory(openAIRealtime, () => createOpenAIRealtimeAdapter(), /get_weather/);

/** Anthropic Messages, Claude Sonnet: two parallel `tool_use` blocks with `input_json_delta`. */
export const Anthropic = providerStory(anthropic, () => createAnthropicAdapter(), /glob[\s\S]*ls/i);

/** Anthropic Messages cut at `max_tokens`: the open call ends `failed`, with the reason. */
export const AnthropicCutAtMaxTokens = providerStory(anthropicCut, () => createAnthropicAdapter(), /max_tokens/);

/** Gemini on Vertex: `partialArgs` addressed by jsonPath, previewed as text rebuilt from the paths. */
export const Gemini = providerStory(gemini, () => createGeminiAdapter(), /cookRecipe[\s\S]*Let stand for 15 minutes before serving\./);

/** Cohere v2: `tool-call-start`, `-delta`, `-end`, two calls. */
export const Cohere = providerStory(cohere, () => createCohereAdapter(), /weather[\s\S]*cityAttractions/);

/** The AI SDK's UI message stream from a LangGraph agent: `tool-input-*` and `tool-output-*` parts. */
export const AISDK = providerStory(aiSdk, () => createAISDKAdapter(), /Done|Failed/);
