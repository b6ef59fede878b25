'use client';
/**
 * `toolgate/renderers`: views for the tools people run most, each in this entry of its own so that
 * an app that does not show them never loads their parsers.
 */
export { TerminalOutput, type TerminalOutputProps, type TerminalLabels, type TerminalStatus } from './terminal/terminal-output';
export { createAnsiLines, type AnsiLine, type AnsiLines, type AnsiRun } from './terminal/ansi-lines';
