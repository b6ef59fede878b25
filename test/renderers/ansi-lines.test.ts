// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createAnsiLines } from 'toolgate/renderers';

const ESC = '\u001b';

describe('createAnsiLines', () => {
  it('turns SGR colours and decorations into runs of plain text', () => {
    const lines = createAnsiLines().push(`${ESC}[31mFAIL${ESC}[0m 2 ${ESC}[1;32mPASS${ESC}[0m\n`);
    expect(lines).toEqual([
      {
        text: 'FAIL 2 PASS',
        runs: [{ text: 'FAIL', fg: 'red' }, { text: ' 2 ' }, { text: 'PASS', fg: 'green', bold: true }],
      },
    ]);
  });

  it('keeps a colour set on one line for the next, until a reset', () => {
    const lines = createAnsiLines().push(`${ESC}[33mwarning: one\ntwo${ESC}[0m\nthree\n`);
    expect(lines.map((l) => l.runs)).toEqual([[{ text: 'warning: one', fg: 'yellow' }], [{ text: 'two', fg: 'yellow' }], [{ text: 'three' }]]);
  });

  it('keeps the colour across pushes of a growing stream', () => {
    const parsed = createAnsiLines();
    parsed.push(`${ESC}[34mblue`);
    parsed.push(`${ESC}[34mblue\nstill`);
    expect(parsed.push(`${ESC}[34mblue\nstill blue\n`).map((l) => l.runs)).toEqual([[{ text: 'blue', fg: 'blue' }], [{ text: 'still blue', fg: 'blue' }]]);
  });

  it('parses only what was appended: the lines already complete are the same objects', () => {
    const parsed = createAnsiLines();
    const first = parsed.push('a\nb\n');
    const second = parsed.push('a\nb\nc\n');
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second.map((l) => l.text)).toEqual(['a', 'b', 'c']);
  });

  it('starts again when the text is not a continuation of what it had', () => {
    const parsed = createAnsiLines();
    parsed.push(`${ESC}[31mred\n`);
    expect(parsed.push('other\n')).toEqual([{ text: 'other', runs: [{ text: 'other' }] }]);
  });

  it('shows the last state of a line rewritten by carriage returns (a progress bar)', () => {
    const lines = createAnsiLines().push('10%\r50%\r100% done\n');
    expect(lines.map((l) => l.text)).toEqual(['100% done']);
  });

  it('drops hyperlinks, titles and cursor moves instead of showing stray characters', () => {
    const lines = createAnsiLines().push(`${ESC}]8;;https://example.test${ESC}\\docs${ESC}]8;;${ESC}\\ ${ESC}[2Kline${ESC}[1A ${ESC}]0;title\u0007end\n`);
    expect(lines[0]!.text).toBe('docs line end');
  });

  it('maps 256-colour and true-colour codes to rgb', () => {
    const lines = createAnsiLines().push(`${ESC}[38;5;196mA${ESC}[38;2;1;2;3mB${ESC}[38;5;9mC\n`);
    expect(lines[0]!.runs.map((r) => r.fg)).toEqual(['255 0 0', '1 2 3', 'bright-red']);
  });

  it('keeps markup as text: output that looks like HTML is characters, never elements', () => {
    const lines = createAnsiLines().push('<img src=x onerror=alert(1)> &amp;\n');
    expect(lines[0]!.text).toBe('<img src=x onerror=alert(1)> &amp;');
  });

  it('gives the line still being written as the last line', () => {
    expect(createAnsiLines().push('done\nhalf').map((l) => l.text)).toEqual(['done', 'half']);
  });
});
