// Type tests of the client: checked by `tsc --noEmit` (which `npm test` runs first). Nothing here runs.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createToolgate,
  type AppToolHost,
  type ConfirmationController,
  type ToolGrants,
  type ToolSession,
  type ToolStreamStore,
  type ToolgateClient,
  type ToolgateOptions,
} from 'toolgate/core';
import { ToolgateProvider, type ToolgateProviderProps } from 'toolgate';
import type { BridgeOptions } from 'toolgate/ai-sdk';

describe('createToolgate', () => {
  it('takes no options, or parts made elsewhere', () => {
    expectTypeOf(createToolgate).parameter(0).toEqualTypeOf<ToolgateOptions | undefined>();
    expectTypeOf(createToolgate()).toEqualTypeOf<ToolgateClient>();
    expectTypeOf<ToolgateOptions['calls']>().toEqualTypeOf<ToolStreamStore | undefined>();
    expectTypeOf<ToolgateOptions['host']>().toEqualTypeOf<AppToolHost | undefined>();
    expectTypeOf<ToolgateOptions['approvals']>().toEqualTypeOf<ConfirmationController | undefined>();
  });

  it('gives the store, the host and the approvals with their grants', () => {
    const client = createToolgate();
    expectTypeOf(client.calls).toEqualTypeOf<ToolStreamStore>();
    expectTypeOf(client.host).toEqualTypeOf<AppToolHost>();
    expectTypeOf(client.approvals).toEqualTypeOf<ConfirmationController>();
    expectTypeOf(client.approvals.grants).toEqualTypeOf<ToolGrants>();
  });

  it('connects a session and gives back the function that disconnects', () => {
    const client = createToolgate();
    expectTypeOf(client.connect).parameters.toEqualTypeOf<[ToolSession]>();
    expectTypeOf(client.connect).returns.toEqualTypeOf<() => void>();
    expectTypeOf(client.mount).returns.toEqualTypeOf<() => void>();
    expectTypeOf(client.close).returns.toEqualTypeOf<void>();
  });

  it('is what the provider and the bridges take', () => {
    expectTypeOf<ToolgateProviderProps['client']>().toEqualTypeOf<ToolgateClient | undefined>();
    expectTypeOf<BridgeOptions['client']>().toEqualTypeOf<ToolgateClient | undefined>();
    expectTypeOf(ToolgateProvider).parameter(0).toMatchTypeOf<{ client?: ToolgateClient }>();
  });
});
