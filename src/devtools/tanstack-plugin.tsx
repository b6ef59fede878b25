/**
 * The panel as a plugin of TanStack Devtools (`@tanstack/react-devtools`, an optional peer). This
 * file imports nothing of TanStack: the plugin is a plain object of the shape its `plugins` prop
 * takes (`{ id, name, render }`), so the panel works without it and an app that has it passes
 * the object in. `render` is a function, not an element, because TanStack passes its own theme
 * to it: the panel takes the shell's theme (TanStack's default is dark, whatever the page's is),
 * instead of a light panel inside a dark shell.
 */
import type { ReactElement } from 'react';
import { ToolgateDevtools, type ToolgateDevtoolsProps } from './toolgate-devtools';

/**
 * A TanStack Devtools plugin: what `<TanStackDevtools plugins={[…]} />` takes.
 *
 * @example
 * const plugin: ToolgateDevtoolsPlugin = toolgateDevtoolsPlugin(client);
 */
export interface ToolgateDevtoolsPlugin {
  readonly id: string;
  readonly name: string;
  /** What TanStack calls to draw the panel, with the shell's theme. */
  readonly render: (el: HTMLElement, props: { readonly theme: 'light' | 'dark' }) => ReactElement;
  readonly defaultOpen?: boolean;
}

/**
 * The Toolgate panel for TanStack Devtools.
 *
 * @example
 * import { TanStackDevtools } from '@tanstack/react-devtools';
 * import { toolgateDevtoolsPlugin } from 'toolgate/devtools';
 * <TanStackDevtools plugins={[toolgateDevtoolsPlugin(client, { auditLog })]} />
 */
export function toolgateDevtoolsPlugin(
  client: ToolgateDevtoolsProps['client'],
  options: Omit<ToolgateDevtoolsProps, 'client'> & { name?: string; defaultOpen?: boolean } = {},
): ToolgateDevtoolsPlugin {
  const { name = 'Toolgate', defaultOpen, ...props } = options;
  return {
    id: 'toolgate',
    name,
    render: (_el, shell) => <ToolgateDevtools client={client} {...props} theme={props.theme ?? shell.theme} />,
    ...(defaultOpen === undefined ? {} : { defaultOpen }),
  };
}
