// @vitest-environment node
// MCP lives in its own entry (docs/architecture.md, "Layers"): nothing that `toolgate` or
// `toolgate/core` loads comes from src/mcp-apps/ or imports an MCP package, and in
// `toolgate/mcp-apps` the MCP Apps SDK (an optional peer) is reached only by the dynamic import
// in app-bridge.ts, so importing the entry without the SDK installed works and does no work.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph } from './import-graph';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
const graph = importGraph(src);

function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(graph.get(file) ?? []));
  }
  return seen;
}

/** The MCP packages a source file imports, each with whether the import is dynamic. */
function mcpImports(file: string): { name: string; dynamic: boolean }[] {
  const text = readFileSync(join(src, file), 'utf8');
  const found: { name: string; dynamic: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      if (node.moduleSpecifier.text.startsWith('@modelcontextprotocol/') && !typeOnly) found.push({ name: node.moduleSpecifier.text, dynamic: false });
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg) && arg.text.startsWith('@modelcontextprotocol/')) found.push({ name: arg.text, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS));
  return found;
}

describe('MCP code', () => {
  it('is not loaded by toolgate or toolgate/core', () => {
    for (const entry of ['index.ts', 'core/index.ts']) {
      const loaded = [...reachable(entry)];
      expect(loaded.filter((file) => file.startsWith('mcp-apps/')), entry).toEqual([]);
      expect(loaded.filter((file) => mcpImports(file).length > 0), entry).toEqual([]);
    }
  });

  it('reaches the MCP Apps SDK only by the dynamic import in app-bridge.ts', () => {
    const loaded = [...reachable('mcp-apps/index.ts')];
    const imports = loaded.flatMap((file) => mcpImports(file).map((found) => ({ file, ...found })));
    expect(imports).toEqual([{ file: 'mcp-apps/app-bridge.ts', name: '@modelcontextprotocol/ext-apps/app-bridge', dynamic: true }]);
  });
});
