// @vitest-environment node
// The README's complete examples are copied into apps as they are, so they must compile: every
// `ts`/`tsx` block under the headings below is written to a file of its own and type-checked, with
// the repository's compiler options, against the kit's sources and the libraries it bridges.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The sections whose examples are complete programs. */
const CHECKED = [
  'With the AI SDK',
  'The AI SDK on a plain Node server',
  'Describing the AI SDK\'s tools',
  'Cards in place in the conversation',
  'With AG-UI',
  'What the AG-UI bridge expects of an agent',
  'With a provider stream',
  'Rules',
  'Rules in the approvals',
  'Audit',
  'Approvals any server can verify',
  'File edits, reviewed by change',
  'MCP Apps',
  'Devtools',
  'Elicitation',
];

interface Example {
  section: string;
  /** 1-based line of the block's first line of code in README.md. */
  line: number;
  lang: 'ts' | 'tsx';
  code: string;
}

function examples(): Example[] {
  const found: Example[] = [];
  let section: string | undefined;
  let block: Example | undefined;
  let fenced = false; // inside any fenced block, checked or not: its lines are never headings
  readme.split('\n').forEach((text, index) => {
    const fence = /^```(\w*)\s*$/.exec(text);
    if (fence && !fenced) {
      fenced = true;
      const lang = fence[1];
      if (section !== undefined && CHECKED.includes(section) && (lang === 'ts' || lang === 'tsx')) block = { section, line: index + 2, lang, code: '' };
      return;
    }
    if (fence && fenced && fence[1] === '') {
      fenced = false;
      if (block !== undefined) found.push(block);
      block = undefined;
      return;
    }
    if (block !== undefined) block.code += `${text}\n`;
    else if (!fenced) {
      const heading = /^#{2,3} (.+)$/.exec(text);
      if (heading) section = heading[1]!.trim();
    }
  });
  return found;
}

describe("the README's complete examples", () => {
  const all = examples();

  it('has examples in every section it promises', () => {
    for (const section of CHECKED) expect(all.filter((e) => e.section === section).length, section).toBeGreaterThan(0);
  });

  it('type-check as they are, each as a module of its own', () => {
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const dir = join(root, '.cache', 'readme-examples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = all.map((example, i) => {
      const file = join(dir, `example-${i + 1}.${example.lang}`);
      // Each block is a module: its names do not meet another block's.
      writeFileSync(file, `${example.code}\nexport {};\n`);
      return { file, example };
    });
    const program = ts.createProgram({ rootNames: files.map((f) => f.file), options: { ...options, noEmit: true } });
    const problems = files.flatMap(({ file, example }) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
        const { line } = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: 0 };
        return `README.md:${example.line + line} (${example.section}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
