/**
 * A shell command as a policy rule sees it: the words of one simple command, and whether the
 * text also does anything else (runs a second command, redirects, substitutes). Parsed with
 * `shell-quote`, a well-kept parser of POSIX shell words and operators, plus the checks it does
 * not make itself (backquotes and line breaks, which it reads as ordinary characters).
 *
 * A rule never matches a command by a string prefix: `>&echo touch x` starts with an operator,
 * not with `echo`, and `git status; rm -rf ~` is two commands. See docs/guarantees.md.
 */
import { parse } from 'shell-quote';

/**
 * What a command's text does besides running one program with plain words.
 *
 * @example
 * const { compound, redirection, substitution }: ShellCommandFeatures = parseShellCommand('ls > out')!;
 */
export interface ShellCommandFeatures {
  /** More than one command: `;`, `&&`, `||`, `|`, `&`, a subshell `( )` or a line break. */
  compound: boolean;
  /** Input or output redirected: `>`, `>>`, `<`, `>&`, `<&`, `>|`, here-strings. */
  redirection: boolean;
  /** Text computed when it runs: `$VAR`, `${…}`, `$( )`, backquotes, `<( )`. */
  substitution: boolean;
}

/**
 * A parsed command: its words (`argv[0]` the program), the glob words left as patterns, and its features.
 *
 * @example
 * const command: ShellCommand | undefined = parseShellCommand('ls *.md');
 */
export interface ShellCommand extends ShellCommandFeatures {
  argv: string[];
  /** Indexes in `argv` of words the shell would expand as globs (`*.txt`). */
  globs: number[];
}

const COMPOUND = new Set([';', ';;', '&&', '||', '|', '|&', '&', '(', ')']);
const REDIRECTION = new Set(['<', '>', '>>', '>&', '<&', '>|', '<<<', '<>']);
const SUBSTITUTION = new Set(['<(', '>(']);

// shell-quote calls this for each `$NAME`, `${NAME}` and the `$` of `$(`: marking the token is how
// a substitution is told apart from a word that only looks like one ('$HOME' in single quotes).
const SUBSTITUTED = Object.freeze({ op: 'substitution' as const });

/**
 * Parses a command line, or an argument vector given as an array of strings (taken as it is, with
 * no shell in between). `undefined` for anything else.
 *
 * @example
 * parseShellCommand('git log --oneline')  // { argv: ['git', 'log', '--oneline'], compound: false, … }
 * parseShellCommand('>&echo touch x')     // { argv: ['echo', 'touch', 'x'], redirection: true, … }
 */
export function parseShellCommand(command: unknown): ShellCommand | undefined {
  if (Array.isArray(command)) {
    if (!command.every((word): word is string => typeof word === 'string')) return undefined;
    return { argv: [...command], globs: [], compound: false, redirection: false, substitution: false };
  }
  if (typeof command !== 'string') return undefined;
  const out: ShellCommand = {
    argv: [],
    globs: [],
    // A line break separates commands; shell-quote joins the lines into one.
    compound: /[\r\n]/.test(command),
    redirection: false,
    // shell-quote keeps backquotes inside words.
    substitution: command.includes('`'),
  };
  let tokens: ReturnType<typeof parse>;
  try {
    tokens = parse(command, () => SUBSTITUTED as unknown as string);
  } catch {
    return undefined;
  }
  for (const entry of tokens) {
    if (typeof entry === 'string') {
      out.argv.push(entry);
      continue;
    }
    const token = entry as { op?: string; pattern?: string; comment?: string };
    // Compared by its op: shell-quote may copy the marker. No text parses to this op.
    if (token.op === SUBSTITUTED.op) {
      out.substitution = true;
    } else if (token.comment !== undefined) {
      // The rest of the line is not run.
    } else if (token.op === 'glob') {
      out.globs.push(out.argv.length);
      out.argv.push(token.pattern ?? '');
    } else if (COMPOUND.has(token.op ?? '')) {
      out.compound = true;
    } else if (REDIRECTION.has(token.op ?? '')) {
      out.redirection = true;
    } else if (SUBSTITUTION.has(token.op ?? '')) {
      out.substitution = true;
    } else {
      // An operator this module does not know: count it as doing something else.
      out.compound = true;
    }
  }
  return out;
}
