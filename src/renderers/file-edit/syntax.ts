/**
 * Syntax colouring for `<FileEditReview highlight>`, loaded only by `import()` when an app turns it
 * on: lowlight (highlight.js's grammars, giving a syntax tree, not HTML) with a few languages,
 * turned into React elements. Each line is coloured on its own, so the windowed rows stay
 * independent; a construct that spans lines (a block comment, a template string) is coloured
 * line by line as highlight.js reads each line alone.
 */
import { createElement, type ReactNode } from 'react';
import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';

const lowlight = createLowlight({ bash, css, javascript, json, python, typescript, xml });

const BY_EXTENSION: Record<string, string> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescript',
  json: 'json', py: 'python', css: 'css', html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml',
  sh: 'bash', bash: 'bash', zsh: 'bash',
};

/** The language of a file by its extension, or `undefined` (then lines stay plain). */
export function languageOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : BY_EXTENSION[path.slice(dot + 1).toLowerCase()];
}

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string };

function toReact(node: HastNode, key: number): ReactNode {
  if (node.type === 'text') return (node as HastText).value;
  if (node.type !== 'element') return null;
  const element = node as HastElement;
  const names = element.properties?.className;
  const className = Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string').join(' ') : undefined;
  return createElement('span', { key, className }, element.children.map(toReact));
}

/** One line, coloured as React elements (text only, never HTML), or the text itself. */
export function colourLine(text: string, language: string): ReactNode {
  const tree = lowlight.highlight(language, text);
  return tree.children.map((child, index) => toReact(child as HastNode, index));
}
