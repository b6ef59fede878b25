/**
 * The final arguments of each call as the provider itself states them, read straight from a
 * recording with the simplest code that follows each API's documentation: the `.done`
 * arguments of OpenAI Responses/Realtime, the `args` or `input` objects where a provider
 * sends the whole value, else `JSON.parse` of the call's joined fragments. Written apart
 * from the adapters on purpose, so that the tests compare two readings of the same stream.
 *
 * `undefined` means the provider never gave a complete value (the max_tokens cut).
 */
type Any = Record<string, any>;

export interface ProviderCall {
  name: string;
  final: unknown;
}

const parseOr = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export function openAIChatFinals(chunks: readonly unknown[]): ProviderCall[] {
  const calls: { name: string; text: string }[] = [];
  const byKey = new Map<string, { name: string; text: string }>();
  for (const chunk of chunks as Any[]) {
    for (const choice of chunk.choices ?? []) {
      for (const tc of choice.delta?.tool_calls ?? []) {
        const key = `${chunk.id}/${choice.index}/${tc.index ?? tc.id}`;
        let call = byKey.get(key);
        if (!call) {
          call = { name: tc.function.name, text: '' };
          byKey.set(key, call);
          calls.push(call);
        }
        call.text += tc.function?.arguments ?? '';
      }
    }
  }
  return calls.map((c) => ({ name: c.name, final: parseOr(c.text) }));
}

export function openAIResponsesFinals(chunks: readonly unknown[]): ProviderCall[] {
  const names = new Map<string, string>();
  const out: ProviderCall[] = [];
  for (const e of chunks as Any[]) {
    if (e.type === 'response.output_item.added' && (e.item.type === 'function_call' || e.item.type === 'mcp_call')) {
      names.set(e.item.id, e.item.name);
    }
    if (e.type === 'response.function_call_arguments.done' || e.type === 'response.mcp_call_arguments.done') {
      out.push({ name: names.get(e.item_id) ?? e.name, final: JSON.parse(e.arguments) });
    }
  }
  return out;
}

export function anthropicFinals(chunks: readonly unknown[]): ProviderCall[] {
  const out: ProviderCall[] = [];
  let open = new Map<number, { name: string; input: unknown; text: string }>();
  const tool = (b: Any) => b.type === 'tool_use' || b.type === 'server_tool_use';
  for (const e of chunks as Any[]) {
    if (e.type === 'message_start') {
      open = new Map();
      for (const b of e.message.content ?? []) if (tool(b)) out.push({ name: b.name, final: b.input });
    }
    if (e.type === 'content_block_start' && tool(e.content_block)) {
      open.set(e.index, { name: e.content_block.name, input: e.content_block.input, text: '' });
    }
    if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') open.get(e.index)!.text += e.delta.partial_json;
    if (e.type === 'content_block_stop' && open.has(e.index)) {
      const b = open.get(e.index)!;
      open.delete(e.index);
      // Anthropic's documented rule: no JSON text means the start input is the input.
      out.push({ name: b.name, final: b.text === '' ? b.input : JSON.parse(b.text) });
    }
    if (e.type === 'message_stop') {
      for (const b of open.values()) out.push({ name: b.name, final: parseOr(b.text) });
      open = new Map();
    }
  }
  return out;
}

/** Gemini: whole `args`, or the object the `partialArgs` paths describe (strings concatenate). */
export function geminiFinals(chunks: readonly unknown[]): ProviderCall[] {
  const out: { name: string; final: Any }[] = [];
  for (const chunk of chunks as Any[]) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      const fc = part.functionCall;
      if (!fc) continue;
      if (fc.name) out.push({ name: fc.name, final: fc.args ?? {} });
      for (const p of fc.partialArgs ?? []) {
        const keys = [...(p.jsonPath as string).matchAll(/\.([^.[]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
        let node: Any = out[out.length - 1]!.final;
        keys.slice(0, -1).forEach((k, i) => {
          node[k] ??= typeof keys[i + 1] === 'number' ? [] : {};
          node = node[k];
        });
        const leaf = keys[keys.length - 1]!;
        if (p.stringValue !== undefined) node[leaf] = (node[leaf] ?? '') + p.stringValue;
        else node[leaf] = p.numberValue ?? p.boolValue ?? null;
      }
    }
  }
  return out;
}

export function cohereFinals(chunks: readonly unknown[]): ProviderCall[] {
  const out: { name: string; text: string }[] = [];
  for (const e of chunks as Any[]) {
    if (e.type === 'tool-call-start') {
      const tc = e.delta.message.tool_calls;
      out.push({ name: tc.function.name, text: tc.function.arguments ?? '' });
    }
    if (e.type === 'tool-call-delta') out[out.length - 1]!.text += e.delta.message.tool_calls.function.arguments;
  }
  return out.map((c) => ({ name: c.name, final: parseOr(c.text) }));
}

export function aiSdkFinals(chunks: readonly unknown[]): ProviderCall[] {
  const calls = new Map<string, { name: string; text: string; input?: unknown }>();
  for (const e of chunks as Any[]) {
    if (e.type === 'tool-input-start') calls.set(e.toolCallId, { name: e.toolName, text: '' });
    if (e.type === 'tool-input-delta') calls.get(e.toolCallId)!.text += e.inputTextDelta;
    if (e.type === 'tool-input-available') calls.get(e.toolCallId)!.input = e.input;
  }
  return [...calls.values()].map((c) => ({ name: c.name, final: c.input ?? parseOr(c.text) }));
}

/** AG-UI: the joined `TOOL_CALL_ARGS` deltas of each `TOOL_CALL_START`, parsed. */
export function aguiFinals(events: readonly unknown[]): ProviderCall[] {
  const calls = new Map<string, { name: string; text: string }>();
  for (const e of events as Any[]) {
    if (e.type === 'TOOL_CALL_START') calls.set(e.toolCallId, { name: e.toolCallName, text: '' });
    if (e.type === 'TOOL_CALL_ARGS') calls.get(e.toolCallId)!.text += e.delta;
  }
  return [...calls.values()].map((c) => ({ name: c.name, final: parseOr(c.text) }));
}
