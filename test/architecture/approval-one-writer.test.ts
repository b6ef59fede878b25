/**
 * The approval record has one writer (docs/architecture.md, "The approval record"): the
 * controller's flow writes the records, and one mirror derives each call's approval fields from
 * them through the store's `markApproval`. A new file that marks calls itself, or writes records,
 * fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** The code of a file without its comments (JSDoc examples call `markApproval` too). */
function codeOf(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const files = sourceFiles(join(ROOT, 'src')).map((path) => ({ path: relative(ROOT, path).split('\\').join('/'), code: codeOf(path) }));
const where = (pattern: RegExp) => files.filter((f) => pattern.test(f.code)).map((f) => f.path);

describe('one approval record per call, one writer', () => {
  it('finds the source files it reads (the check can fail)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(where(/\bcreateToolgate\(/)).toContain('src/core/toolgate-client.ts');
  });

  it('calls markApproval in one source file: the mirror that derives a call from its record', () => {
    // The devtools' inspector also replays a recording's page marks into a store of its own, which
    // no controller writes: it shows what happened, it decides nothing.
    expect(where(/\.markApproval\s*\(|\[\s*['"`]markApproval['"`]\s*\]\s*\(/).sort()).toEqual(['src/core/approval/approval-mirror.ts', 'src/devtools/recording-inspect.ts']);
  });

  it('makes and writes the record store only in the controller: its shell (made at once) and its flow', () => {
    // The shell holds the records from the controller's creation and writes the one note that needs
    // no request (`noteAnswer`); the flow, loaded on the first request, writes the rest.
    expect(where(/\bcreateApprovalRecords\s*\(/).filter((p) => p !== 'src/core/approval/approval-records.ts')).toEqual(['src/core/approval/confirmation-shell.ts']);
    expect(where(/\brecords\.write\s*\(/).sort()).toEqual(['src/core/approval/confirmation-flow.ts', 'src/core/approval/confirmation-shell.ts']);
  });

  it('builds the mark a call gets from a record in one place', () => {
    expect(where(/\bapprovalMarkOf\s*\(/).filter((p) => p !== 'src/core/approval/approval-record.ts').sort()).toEqual(['src/core/approval/approval-mirror.ts', 'src/core/approval/confirmation-bridges.ts', 'src/hooks/use-shown-approval.ts']);
    // The marks an outcome gives are built where the flow writes them, and nowhere else.
    expect(where(/\bendedMark\s*\(/).filter((p) => p !== 'src/core/approval/approval-record-outcomes.ts')).toEqual(['src/core/approval/confirmation-flow.ts']);
  });
});
