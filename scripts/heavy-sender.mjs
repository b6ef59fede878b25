#!/usr/bin/env node
/**
 * One session that sends, three times over and one after another, frames as costly for the
 * reference server to read as its limits allow: ten thousand long keys, a megabyte of escapes,
 * ten thousand multibyte strings, a megabyte of nesting; then a 9.6 MB frame on a socket of its
 * own, which the server must close with 1009. `light` sends the same requests with small
 * arguments (and a small last frame), the baseline the heavy run is compared with.
 *
 * Used by the limits test (every frame answered, 1009 for the last) and by `npm run bench --
 * server` (how long another session's round trips take meanwhile, beside how long each of these
 * frames took to be answered, which this prints). A separate process, so its own encoding and
 * sending cost nothing to the process that measures.
 *
 *   node scripts/heavy-sender.mjs <ws url> [heavy|light]
 */
import WebSocket from 'ws';

const [url, mode = 'heavy'] = process.argv.slice(2);
if (!url || (mode !== 'heavy' && mode !== 'light')) {
  console.error('usage: node scripts/heavy-sender.mjs <ws url> [heavy|light]');
  process.exit(2);
}
const MB = 1024 * 1024;
const request = (id, method, args) => `{"type":"room.request","id":"${id}","method":"${method}","params":{"toolName":"send_invoice","arguments":${args}}}`;
const key = (i) => 'k'.repeat(90) + String(i).padStart(6, '0');
const nested = (n) => '['.repeat(n) + ']'.repeat(n);
const small = '{"customerId":"c_100","amount":1,"currency":"EUR"}';
const frames =
  mode === 'heavy'
    ? [
        ['object', 'confirmTool', '{' + Array.from({ length: 9900 }, (_, i) => `"${key(9900 - i)}":${i}`).join(',') + '}'],
        ['escapes', 'confirmTool', JSON.stringify('\u0001"\\'.repeat(100000))],
        ['strings', 'invokeTool', JSON.stringify(Array.from({ length: 9900 }, (_, i) => `value ${i} ${'é'.repeat(40)}`))],
        ['deep', 'confirmTool', nested(400000)],
      ]
    : [
        ['object', 'confirmTool', small],
        ['escapes', 'confirmTool', small],
        ['strings', 'invokeTool', small],
        ['deep', 'confirmTool', small],
      ];

const socket = new WebSocket(url);
const answers = new Map();
socket.on('message', (data) => {
  const frame = JSON.parse(String(data));
  answers.get(frame.id)?.(frame);
  answers.get(frame.type)?.(frame);
});
const reply = (id) => new Promise((resolve) => answers.set(id, resolve));
socket.on('open', async () => {
  socket.send(JSON.stringify({ type: 'hello', capabilities: [], tools: [] }));
  await reply('session.welcome');
  for (let round = 0; round < 3; round++) {
    for (const [id, method, args] of frames) {
      const frame = request(id + round, method, args);
      if (Buffer.byteLength(frame) > MB) throw new Error(`${id} is over the frame limit`);
      const started = performance.now();
      socket.send(frame);
      await reply(id + round);
      console.log(`answered ${id} in ${(performance.now() - started).toFixed(1)} ms`);
    }
  }
  const last = new WebSocket(url);
  last.on('open', () => last.send(request('last', 'confirmTool', mode === 'heavy' ? nested(4800000) : small)));
  last.on('message', () => last.close());
  last.on('close', (code) => {
    console.log(`last closed ${code}`);
    socket.close();
  });
});
