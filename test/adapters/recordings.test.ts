// @vitest-environment node
/**
 * Every real recording in test/fixtures/real-streams replayed through its adapter. The
 * expectations per file come from INDEX.md there (call names, counts, argument lengths,
 * fragments that end inside an escape) and from the provider's own final values.
 */
import { describe, expect, it } from 'vitest';
import { createAnthropicAdapter, createGeminiAdapter, PROVIDER_ADAPTERS } from 'toolgate/adapters';
import { PROVIDER_CASES, providerOfRecording } from './providers';
import { codePoints, endsInsideEscape, readRecording, recordingFiles, replay } from './replay';

interface ExpectedCall {
  name: string;
  /** The result the stream carries for a provider-hosted call (a matcher), which settles it. */
  output?: unknown;
  /** Code points of the joined argument text (INDEX.md); omitted where no text is streamed. */
  chars?: number;
  outcome?: 'complete' | 'failed';
}

/** What INDEX.md says of a recording; the adapter that reads it comes from the provider list (by file name). */
interface Recording {
  calls: ExpectedCall[];
  /** Distinct turns the calls belong to (several responses in one file). */
  turns?: number;
  /** Fragments that end inside a string escape (INDEX.md "esc-split"). */
  escapeSplits?: number;
  location?: 'server';
}

const rollDie = { name: 'rollDie' };

const RECORDINGS: Record<string, Recording> = {
  'openai-chat-gpt4o-parallel-weather-stock.jsonl': {
    calls: [{ name: 'GetWeatherArgs', chars: 52 }, { name: 'get_stock_price', chars: 40 }],
  },
  'openai-chat-gpt5-multiedit-escapes.jsonl': {
    calls: [{ name: 'multiedit', chars: 303 }],
    escapeSplits: 8,
  },
  'openai-chat-gpt5-parallel-add-multiply.jsonl': {
    calls: [{ name: 'add', chars: 16 }, { name: 'multiply', chars: 16 }],
  },
  'deepseek-chat-v4-multiedit.jsonl': {
    calls: [{ name: 'multiedit', chars: 207 }],
    escapeSplits: 6,
  },
  'zai-chat-glm46-parallel-whole-args.jsonl': {
    calls: [{ name: 'glob', chars: 21 }, { name: 'ls', chars: 72 }],
  },
  'openrouter-chat-kimi-k25-parallel-tiny-frags.jsonl': {
    calls: [{ name: 'add', chars: 16 }, { name: 'multiply', chars: 16 }],
  },
  'groq-chat-kimi-k2-parallel-whole-args.jsonl': {
    calls: [{ name: 'add', chars: 13 }, { name: 'multiply', chars: 13 }],
  },
  'mistral-chat-small-whole-args.jsonl': {
    calls: [{ name: 'weather', chars: 29 }],
  },
  'openai-responses-codex-4-steps-3-calls.jsonl': {
    calls: [{ name: 'calculator', chars: 25 }, { name: 'calculator', chars: 30 }, { name: 'calculator', chars: 31 }],
    turns: 3,
  },
  'openai-responses-gpt5-parallel-whole-args.jsonl': {
    calls: [{ name: 'add', chars: 13 }, { name: 'multiply', chars: 13 }],
  },
  'openai-responses-mcp-call-args.jsonl': {
    calls: [
      { name: 'web_search_exa', chars: 96, output: expect.objectContaining({ results: expect.any(Array) }) },
      { name: 'web_search_exa', chars: 128, output: expect.objectContaining({ results: expect.any(Array) }) },
    ],
    location: 'server',
  },
  'openai-realtime-gpt-realtime-weather.jsonl': {
    calls: [{ name: 'get_weather', chars: 27 }],
  },
  'xai-realtime-grok-weather.jsonl': {
    calls: [{ name: 'get_weather', chars: 17 }],
  },
  'anthropic-code-execution-6kb-file-text.jsonl': {
    calls: [
      { name: 'text_editor_code_execution', chars: 6121, output: expect.objectContaining({ type: 'text_editor_code_execution_create_result' }) },
      { name: 'bash_code_execution', chars: 56, output: expect.objectContaining({ type: 'bash_code_execution_result', stdout: expect.any(String) }) },
      { name: 'bash_code_execution', chars: 82, output: expect.objectContaining({ type: 'bash_code_execution_result', stdout: expect.any(String) }) },
    ],
    escapeSplits: 42,
    location: 'server',
  },
  'anthropic-code-execution-file-upload-1.8kb.jsonl': {
    calls: [
      { name: 'text_editor_code_execution', chars: 52, output: expect.objectContaining({ type: 'text_editor_code_execution_view_result', num_lines: 7 }) },
      { name: 'text_editor_code_execution', chars: 1822, output: expect.objectContaining({ type: 'text_editor_code_execution_create_result' }) },
      { name: 'bash_code_execution', chars: 42, output: expect.objectContaining({ type: 'bash_code_execution_result', stdout: expect.stringContaining('FINANCIAL ANALYSIS REPORT') }) },
    ],
    escapeSplits: 16,
    location: 'server',
  },
  'anthropic-programmatic-tool-calling-emoji.jsonl': {
    // The rollDie inputs arrive whole (content_block_start, then message_start.content).
    calls: [
      { name: 'code_execution', chars: 2011, output: expect.objectContaining({ type: 'code_execution_result', stdout: expect.stringContaining('DICE GAME') }) },
      ...Array.from({ length: 14 }, () => rollDie),
    ],
    // 15 messages: the first holds code_execution and a rollDie, 13 hold one rollDie each,
    // the last only the answer text.
    turns: 14,
  },
  'anthropic-truncated-max-tokens-invalid.jsonl': {
    calls: [{ name: 'make_file', chars: 149, outcome: 'failed' }],
  },
  'anthropic-tool-no-args-empty.jsonl': {
    calls: [{ name: 'updateIssueList', chars: 0 }],
  },
  'anthropic-sonnet-parallel-glob-ls.jsonl': {
    calls: [{ name: 'glob', chars: 22 }, { name: 'ls', chars: 79 }],
  },
  'anthropic-quoted-tool-input.jsonl': {
    calls: [{ name: 'website_update', chars: 273 }],
  },
  'gemini-vertex-partialargs-nested-1kb.jsonl': {
    // INDEX counts the compact JSON of the rebuilt object: the text the adapter writes.
    calls: [{ name: 'cookRecipe', chars: 1062 }],
  },
  'gemini-partialargs-array-missing-terminal.jsonl': {
    calls: [{ name: 'writeItems', chars: 184 }],
  },
  'gemini-25-flash-parallel-whole-args.jsonl': {
    calls: [{ name: 'add' }, { name: 'multiply' }],
  },
  'cohere-v2-parallel-tool-call-delta.jsonl': {
    calls: [{ name: 'weather', chars: 29 }, { name: 'cityAttractions', chars: 25 }],
  },
  'aisdk-ui-langgraph-gpt5-parallel.jsonl': {
    calls: [
      { name: 'get_weather', chars: 34, output: 'Weather in Tokyo: 20°C, Clear skies' },
      { name: 'get_datetime', chars: 41, output: expect.stringMatching(/^Current date and time in Asia\/Tokyo/) },
    ],
  },
};

describe('replaying the real recordings', () => {
  it('covers every recording in the fixtures folder', () => {
    expect(Object.keys(RECORDINGS).sort()).toEqual(recordingFiles());
  });

  describe.each(Object.entries(RECORDINGS))('%s', (file, rec) => {
    const chunks = readRecording(file);
    const provider = providerOfRecording(file);
    const result = replay(PROVIDER_ADAPTERS[provider].create, chunks);

    it('reads every chunk without an error and sends no event for an unknown call', () => {
      expect(result.errors).toEqual([]);
      expect(result.orphans).toEqual([]);
    });

    it('shows each call once, with its name, as many calls as INDEX.md counts', () => {
      expect(result.repeatedStarts, 'a call started twice').toEqual([]);
      expect(result.calls.map((c) => c.name)).toEqual(rec.calls.map((c) => c.name));
      expect(new Set(result.calls.map((c) => c.callId)).size).toBe(rec.calls.length);
    });

    it('streams the argument text INDEX.md measures', () => {
      result.calls.forEach((call, i) => {
        const chars = rec.calls[i]!.chars;
        if (chars !== undefined) expect(codePoints(call.deltas.join('')), call.name).toBe(chars);
      });
    });

    it('starts each call first and ends its arguments exactly once', () => {
      for (const call of result.calls) {
        const phases = call.events.map((e) => e.phase);
        expect(phases[0]).toBe('start');
        const ends = phases.filter((p) => p === 'arguments-complete' || p === 'failed');
        expect(ends, call.name).toHaveLength(1);
        // Fragments only between start and the end of the arguments.
        const endAt = phases.findIndex((p) => p === 'arguments-complete' || p === 'failed');
        expect(phases.slice(endAt).includes('arguments-delta')).toBe(false);
        expect(call.deltas.every((d) => d !== ''), 'no empty fragments').toBe(true);
      }
    });

    it("completes with the provider's own final arguments", () => {
      const finals = PROVIDER_CASES[provider].finals(chunks);
      expect(finals.map((f) => f.name)).toEqual(rec.calls.map((c) => c.name));
      result.calls.forEach((call, i) => {
        const expected = rec.calls[i]!.outcome ?? 'complete';
        expect(call.outcome, call.name).toBe(expected);
        if (expected === 'complete') {
          expect(call.arguments, call.name).toEqual(finals[i]!.final);
          // The streamed text, where there is any, says the same thing.
          if (call.deltas.length > 0) expect(JSON.parse(call.deltas.join(''))).toEqual(call.arguments);
        }
      });
    });

    it('keeps the calls of consecutive responses apart', () => {
      expect(new Set(result.calls.map((c) => c.turnId)).size).toBe(rec.turns ?? 1);
      expect(result.calls.every((c) => c.turnId !== '')).toBe(true);
    });

    it('settles each call whose result the stream carries with that output, and no other', () => {
      result.calls.forEach((call, i) => {
        const expected = rec.calls[i]!;
        const settled = call.events.filter((e) => e.phase === 'settled');
        if (expected.output === undefined) {
          expect(settled, call.name).toEqual([]);
          return;
        }
        expect(settled, call.name).toEqual([expect.objectContaining({ ok: true, output: expected.output })]);
      });
      // A call's end never cancels one whose result came.
      expect(result.events.filter((e) => e.phase === 'cancelled')).toEqual([]);
    });

    if (rec.escapeSplits !== undefined) {
      it(`passes the ${rec.escapeSplits} fragments that end on a lone backslash through unchanged`, () => {
        const split = result.calls.flatMap((c) => c.deltas).filter(endsInsideEscape);
        expect(split).toHaveLength(rec.escapeSplits!);
        expect(result.calls.every((c) => c.outcome === 'complete')).toBe(true);
      });
    }

    if (rec.location !== undefined) {
      it('marks the provider-hosted tools as running on the server', () => {
        expect(result.calls.every((c) => c.location === rec.location)).toBe(true);
      });
    }
  });

  it('ends the call cut at max_tokens failed, saying why', () => {
    const result = replay(createAnthropicAdapter, readRecording('anthropic-truncated-max-tokens-invalid.jsonl'));
    expect(result.calls[0]!.outcome).toBe('failed');
    expect(result.calls[0]!.message).toMatch(/^Anthropic: .*max_tokens.*make_file/);
  });

  it('reads a parameterless Anthropic tool (a single empty fragment) as {}', () => {
    const result = replay(createAnthropicAdapter, readRecording('anthropic-tool-no-args-empty.jsonl'));
    expect(result.calls[0]!.arguments).toEqual({});
    expect(result.calls[0]!.deltas).toEqual([]);
  });

  it('ends the Gemini call whose terminal functionCall never arrives', () => {
    const chunks = readRecording('gemini-partialargs-array-missing-terminal.jsonl');
    const adapter = createGeminiAdapter();
    const events = chunks.flatMap((c) => adapter.push(c));
    // Ended while the stream runs, not only by end(): the last partialArgs part has no willContinue.
    expect(events.at(-1)).toMatchObject({ phase: 'arguments-complete' });
    expect(adapter.end()).toEqual([]);
  });

  it('keeps the programmatic tool calls in the messages they came in', () => {
    const result = replay(createAnthropicAdapter, readRecording('anthropic-programmatic-tool-calling-emoji.jsonl'));
    const turns = result.calls.map((c) => c.turnId);
    expect(turns.slice(1).every((t, i) => i === 0 || t !== turns[i])).toBe(true);
    expect(turns[0]).toBe(turns[1]); // code_execution and the first rollDie share a message
  });
});
