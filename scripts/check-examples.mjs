#!/usr/bin/env node
// The public JSDoc is written for users (docs/architecture.md, "Conventions": a JSDoc line and an @example on every
// public export). Through the TypeScript compiler API, over the barrel of every entry point
// (the entries are read from .storybook/aliases.ts, the one list tests and stories resolve), this
// fails when:
// - an export's declarations carry no @example;
// - an @example does not parse as TypeScript (TSX): examples are code a user can paste;
// - the JSDoc of an export or of its members speaks of where a rule came from instead of the rule
//   (the runtimes' code names, the numbered source documents, the design notes): comments in code
//   point to docs/protocol.md and docs/architecture.md, JSDoc is what users read in their editor and in the .d.ts.
// Run by `npm test`.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { SOURCE_WORDS } from './source-words.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const aliases = readFileSync(join(root, '.storybook', 'aliases.ts'), 'utf8');
const BARRELS = [...aliases.matchAll(/here\('\.\.\/(src\/[\w/-]+\.tsx?)'\)/g)].map((m) => m[1]);
if (BARRELS.length < 5) throw new Error(`found only ${BARRELS.length} entry points in .storybook/aliases.ts`);

const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const program = ts.createProgram({ rootNames: BARRELS.map((b) => join(root, b)), options: { ...options, noEmit: true } });
const checker = program.getTypeChecker();


const hasExample = (declaration) => ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example');
const commentText = (comment) => (typeof comment === 'string' ? comment : ts.getTextOfJSDocComment(comment) ?? '');
const where = (node) => {
  const source = node.getSourceFile();
  return `${relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
};

const missing = new Map(); // file -> Set of names
const unparsable = [];
const sourceWords = new Set();
const seenDocs = new Set();

function checkDocs(node) {
  for (const doc of node.jsDoc ?? []) {
    if (seenDocs.has(doc)) continue;
    seenDocs.add(doc);
    const line = doc.getText().split('\n').find((l) => SOURCE_WORDS.test(l));
    if (line) sourceWords.add(`${where(doc)}: ${line.trim()}`);
    for (const tag of doc.tags ?? []) {
      if (tag.tagName.text !== 'example') continue;
      const code = commentText(tag.comment);
      const parsed = ts.createSourceFile('example.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      const [first] = parsed.parseDiagnostics;
      if (first) unparsable.push(`${where(tag)}: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}\n      ${code.split('\n')[0]}`);
    }
  }
}

function checkDeclaration(declaration) {
  checkDocs(ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration);
  const walk = (node) => {
    if (ts.isPropertySignature(node) || ts.isMethodSignature(node) || ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) {
      checkDocs(node);
    }
    ts.forEachChild(node, walk);
  };
  ts.forEachChild(declaration, walk);
}

let exported = 0;
const checked = new Set();
for (const barrel of BARRELS) {
  const source = program.getSourceFile(join(root, barrel));
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read the exports of ${barrel}`);
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declarations = (target.declarations ?? []).filter((d) => !d.getSourceFile().isDeclarationFile);
    if (declarations.length === 0 || checked.has(target)) continue;
    checked.add(target);
    exported += 1;
    declarations.forEach(checkDeclaration);
    if (declarations.some(hasExample)) continue;
    const file = relative(root, declarations[0].getSourceFile().fileName);
    if (!missing.has(file)) missing.set(file, new Set());
    missing.get(file).add(symbol.name);
  }
}

let failed = false;
const count = [...missing.values()].reduce((n, names) => n + names.size, 0);
if (count === 0) console.log(`JSDoc: all ${exported} public exports of ${BARRELS.length} entry points have an @example.`);
else {
  failed = true;
  console.error(`JSDoc: ${count} of ${exported} public exports have no @example:`);
  for (const [file, names] of [...missing].sort()) console.error(`  ${file}: ${[...names].sort().join(', ')}`);
}
if (unparsable.length === 0) console.log('JSDoc: every @example of the public exports parses as TypeScript.');
else {
  failed = true;
  console.error(`JSDoc: ${unparsable.length} @example blocks do not parse as TypeScript (TSX):`);
  for (const line of unparsable) console.error(`  ${line}`);
}
if (sourceWords.size === 0) console.log('JSDoc: the public JSDoc says what each rule is, not where it came from.');
else {
  failed = true;
  console.error(`JSDoc: ${sourceWords.size} public comments name a rule's source instead of the rule (say what the rule is):`);
  for (const line of [...sourceWords].sort()) console.error(`  ${line}`);
}
if (failed) process.exit(1);
