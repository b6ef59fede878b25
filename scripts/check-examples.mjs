#!/usr/bin/env node
// Every public export has a JSDoc comment with an @example (DESIGN, convention 8): this lists the
// exports of each entry point's barrel (src/index.ts, src/core/index.ts, src/testing/index.ts,
// src/adapters/index.ts, src/client/index.ts) whose declarations carry none, through the
// TypeScript compiler API, and fails when there is one. Run by `npm test`.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const BARRELS = ['src/index.ts', 'src/core/index.ts', 'src/testing/index.ts', 'src/adapters/index.ts', 'src/client/index.ts'];

const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const program = ts.createProgram({ rootNames: BARRELS.map((b) => join(root, b)), options: { ...options, noEmit: true } });
const checker = program.getTypeChecker();

const hasExample = (declaration) => {
  // A variable's comment sits on its statement; ts.getJSDocTags looks there too.
  return ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example');
};

const missing = new Map(); // "file" -> Set of names
let exported = 0;
for (const barrel of BARRELS) {
  const source = program.getSourceFile(join(root, barrel));
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read the exports of ${barrel}`);
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declarations = (target.declarations ?? []).filter((d) => !d.getSourceFile().isDeclarationFile);
    if (declarations.length === 0) continue;
    exported += 1;
    if (declarations.some(hasExample)) continue;
    const where = relative(root, declarations[0].getSourceFile().fileName);
    if (!missing.has(where)) missing.set(where, new Set());
    missing.get(where).add(symbol.name);
  }
}

const count = [...missing.values()].reduce((n, names) => n + names.size, 0);
if (count === 0) {
  console.log(`JSDoc: all ${exported} public exports have an @example.`);
} else {
  console.error(`JSDoc: ${count} of ${exported} public exports have no @example:`);
  for (const [file, names] of [...missing].sort()) console.error(`  ${file}: ${[...names].sort().join(', ')}`);
  process.exit(1);
}
