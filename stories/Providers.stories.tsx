import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ToolCallList } from 'toolgate';
import { PROVIDER_ADAPTERS, type ProviderId, type ToolStreamAdapter } from 'toolgate/adapters';
import { pause } from 'toolgate/testing';
import { Live } from './support/scenarios';
import { PROVIDERS } from '../test/adapters/providers';
import openAIChat from '../test/fixtures/real-streams/openai-chat-gpt4o-parallel-weather-stock.jsonl?raw';
import openAIResponses from '../test/fixtures/real-streams/openai-responses-codex-4-steps-3-calls.jsonl?raw';
import openAIRealtime from '../test/fixtures/real-streams/openai-realtime-gpt-realtime-weather.jsonl?raw';
import anthropic from '../test/fixtures/real-streams/anthropic-sonnet-parallel-glob-ls.jsonl?raw';
import anthropicCut from '../test/fixtures/real-streams/anthropic-truncated-max-tokens-invalid.jsonl?raw';
import gemini from '../test/fixtures/real-streams/gemini-vertex-partialargs-nested-1kb.jsonl?raw';
import cohere from '../test/fixtures/real-streams/cohere-v2-parallel-tool-call-delta.jsonl?raw';
import aiSdk from '../test/fixtures/real-streams/aisdk-ui-langgraph-gpt5-parallel.jsonl?raw';
import deepSeek from '../test/fixtures/real-streams/deepseek-chat-v4-multiedit.jsonl?raw';
import glm from '../test/fixtures/real-streams/zai-chat-glm46-parallel-whole-args.jsonl?raw';
import kimiOpenRouter from '../test/fixtures/real-streams/openrouter-chat-kimi-k25-parallel-tiny-frags.jsonl?raw';
import kimiGroq from '../test/fixtures/real-streams/groq-chat-kimi-k2-parallel-whole-args.jsonl?raw';
import mistral from '../test/fixtures/real-streams/mistral-chat-small-whole-args.jsonl?raw';
import xai from '../test/fixtures/real-streams/xai-realtime-grok-weather.jsonl?raw';

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

/**
 * The recording's chunks fed through the adapter as the replay reaches them: each chunk is
 * pushed when its turn comes, and its events are sent at once, then a pause. Lazy, so the
 * adapter runs live during playback, and a fresh call gives a fresh pass (the adapter is stateful).
 */
function* replayRecording(recording: string, adapter: ToolStreamAdapter): Generator<unknown, void, undefined> {
  for (const line of recording.split('\n')) {
    if (line.trim() === '') continue;
    const events = adapter.push(JSON.parse(line));
    if (events.length === 0) continue;
    yield* events;
    yield pause(40);
  }
  yield* adapter.end();
}

interface FinalCall {
  status: string;
  /** The value of `arguments-complete`, when the call got one. */
  arguments?: unknown;
}

const STATUS_OF_PHASE: Record<string, string> = {
  start: 'pending',
  'arguments-delta': 'streaming',
  'arguments-complete': 'issued',
  settled: 'settled',
  cancelled: 'cancelled',
  failed: 'failed',
};

/** How the events end each call (status, final arguments), in the order the calls began: what the list must show. */
function finalCalls(items: Iterable<unknown>): FinalCall[] {
  const calls = new Map<string, FinalCall>();
  for (const item of items) {
    const event = item as { type?: string; phase?: string; callId?: string; arguments?: unknown };
    if (event.type !== 'tool.stream' || event.callId === undefined) continue;
    const status = STATUS_OF_PHASE[event.phase ?? ''];
    if (status === undefined) continue;
    const call = calls.get(event.callId) ?? { status };
    call.status = status;
    if (event.phase === 'arguments-complete') call.arguments = event.arguments;
    calls.set(event.callId, call);
  }
  return [...calls.values()];
}

/** The keys and the scalar values of a JSON value, in the order the argument tree shows them. */
function treeOf(value: unknown, out: { keys: string[]; values: string[] } = { keys: [], values: [] }) {
  if (Array.isArray(value)) for (const item of value) treeOf(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      out.keys.push(key);
      treeOf(child, out);
    }
  } else out.values.push(String(value));
  return out;
}

/** What a card's argument tree shows (not its output's): its keys and scalar values, in order. */
function shownTree(card: HTMLElement) {
  const tree = within(card).getByRole('group', { name: 'Arguments' });
  const text = (selector: string) => Array.from(tree.querySelectorAll(selector), (node) => node.textContent ?? '');
  return {
    keys: text('.toolgate-json-key'),
    values: text('.toolgate-json-string, .toolgate-json-number, .toolgate-json-boolean, .toolgate-json-null'),
  };
}

/** Every call of a replay has its final status and, where its arguments completed, shows exactly those. */
async function expectFinalCalls(where: HTMLElement, expected: FinalCall[]): Promise<void> {
  await expect(expected.length).toBeGreaterThan(0);
  const cards = () => within(where).queryAllByRole('article');
  // Wait on state: every call has its final status (well within the test's own time limit).
  await waitFor(() => expect(cards().map((card) => card.dataset['status'])).toEqual(expected.map((call) => call.status)));
  // Each call whose arguments completed shows exactly those arguments, not a stale preview.
  for (const [i, card] of cards().entries()) {
    const call = expected[i] as FinalCall;
    if ('arguments' in call) await expect(shownTree(card)).toEqual(treeOf(call.arguments));
  }
}

/** A recording replayed through the adapter of `provider` (from the provider list); `label` names it in reports. */
function providerStory(recording: string, provider: ProviderId, shows: RegExp, label?: string): Story {
  const makeAdapter = () => PROVIDER_ADAPTERS[provider].create(label === undefined ? {} : { label });
  const items = () => replayRecording(recording, makeAdapter());
  return {
    render: ({ speed }) => (
      <Live key={speed} items={items} speed={speed}>
        <ToolCallList />
      </Live>
    ),
    play: async ({ canvasElement }) => {
      await expectFinalCalls(canvasElement, finalCalls(items()));
      await expect(canvasElement).toHaveTextContent(shows);
    },
  };
}

/** Every recording of test/fixtures/real-streams, by file name. */
const RECORDINGS = Object.fromEntries(
  Object.entries(import.meta.glob<string>('../test/fixtures/real-streams/*.jsonl', { query: '?raw', import: 'default', eager: true })).map(
    ([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text],
  ),
);

/** For each provider of the list, its shortest recording (or, for one without, its sample stream). */
const SHORTEST = PROVIDERS.map((provider) => {
  const [file] = Object.keys(RECORDINGS)
    .filter((name) => provider.recordings.test(name))
    .sort((a, b) => RECORDINGS[a]!.split('\n').length - RECORDINGS[b]!.split('\n').length);
  if (file !== undefined) return { ...provider, file, recording: RECORDINGS[file]! };
  if (provider.sample === undefined) throw new Error(`no recording and no sample for ${provider.id}`);
  return { ...provider, file: 'sample from the specification', recording: provider.sample.map((chunk) => JSON.stringify(chunk)).join('\n') };
});

/**
 * Every adapter of the provider list (`PROVIDER_ADAPTERS`) side by side, each replaying its
 * shortest recording (or a sample written from its specification where no recording exists): a
 * provider added to the list shows up here without a new story.
 */
export const EveryProvider: Story = {
  render: ({ speed }) => (
    <div style={{ display: 'grid', gap: '1rem' }}>
      {SHORTEST.map(({ id, label, create, recording, file }) => (
        <section key={`${id}-${speed}`} aria-label={label} data-provider={id}>
          <h2 style={{ font: 'inherit', fontWeight: 600, margin: '0 1rem' }}>
            {label} <small>({file})</small>
          </h2>
          <Live items={() => replayRecording(recording, create())} speed={speed}>
            <ToolCallList aria-label={`Tool calls of ${label}`} />
          </Live>
        </section>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    for (const { id, create, recording } of SHORTEST) {
      const section = canvasElement.querySelector<HTMLElement>(`[data-provider="${id}"]`);
      await expect(section).not.toBeNull();
      await expectFinalCalls(section!, finalCalls(replayRecording(recording, create())));
    }
  },
};

/** OpenAI Chat Completions, gpt-4o: two parallel calls by `tool_calls` index. */
export const OpenAIChat = providerStory(openAIChat, 'openai-chat', /GetWeatherArgs[\s\S]*get_stock_price/);

/** OpenAI Responses API, gpt-5.1-codex-max: four responses in a row, three calls kept apart. */
export const OpenAIResponses = providerStory(openAIResponses, 'openai-responses', /Turn 3[\s\S]*calculator/);

/** OpenAI Realtime API over WebSocket, gpt-realtime: server events with pretty-printed arguments. */
export const OpenAIRealtime = providerStory(openAIRealtime, 'openai-realtime', /get_weather/);

/** Anthropic Messages, Claude Sonnet: two parallel `tool_use` blocks with `input_json_delta`. */
export const Anthropic = providerStory(anthropic, 'anthropic', /glob[\s\S]*ls/i);

/** Anthropic Messages cut at `max_tokens`: the open call ends `failed`, with the reason. */
export const AnthropicCutAtMaxTokens = providerStory(anthropicCut, 'anthropic', /max_tokens/);

/** Gemini on Vertex: `partialArgs` addressed by jsonPath, previewed as text rebuilt from the paths. */
export const Gemini = providerStory(gemini, 'gemini', /cookRecipe[\s\S]*Let stand for 15 minutes before serving\./);

/** Cohere v2: `tool-call-start`, `-delta`, `-end`, two calls. */
export const Cohere = providerStory(cohere, 'cohere', /weather[\s\S]*cityAttractions/);

/** The AI SDK's UI message stream from a LangGraph agent: `tool-input-*` and `tool-output-*` parts. */
export const AISDK = providerStory(aiSdk, 'ai-sdk', /Done|Failed/);

/*
 * OpenAI-compatible Chat Completions: the same adapter (`createOpenAIChatAdapter`, `openai-chat` in the list), each provider's
 * own way of chunking. `label` names the provider in the adapter's error reports.
 */

/** DeepSeek V4: one `multiedit` call of Go source in 68 fragments, six of them ending inside a string escape. */
export const DeepSeek = providerStory(deepSeek, 'openai-chat', /multiedit[\s\S]*Hello, Crush!/, 'DeepSeek');

/** Z.ai GLM-4.6: two parallel calls, each with its whole arguments in the chunk that names it. */
export const GLM = providerStory(glm, 'openai-chat', /glob[\s\S]*\*\*\/\*\.go[\s\S]*ls/, 'Z.ai GLM');

/** Kimi K2.5 through OpenRouter: two parallel calls in 1-2 character fragments, ids such as `functions.add:0`. */
export const KimiViaOpenRouter = providerStory(kimiOpenRouter, 'openai-chat', /add[\s\S]*multiply/, 'OpenRouter');

/** Kimi K2 on Groq: two parallel calls, each call's arguments in one delta. */
export const KimiViaGroq = providerStory(kimiGroq, 'openai-chat', /add[\s\S]*multiply/, 'Groq');

/** Mistral Small: the whole call in the final chunk, beside `finish_reason`, with no `index`. */
export const Mistral = providerStory(mistral, 'openai-chat', /weather[\s\S]*San Francisco/, 'Mistral');

/** xAI Voice (grok), OpenAI-Realtime-compatible server events: one delta with the whole arguments, no `output_index`. */
export const XAIRealtime = providerStory(xai, 'openai-realtime', /get_weather[\s\S]*London/, 'xAI');
