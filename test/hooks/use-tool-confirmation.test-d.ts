// Type tests of the confirmation hooks and dialog props: checked by `tsc --noEmit` (which
// `npm test` runs first), so a wrong type fails the run. Nothing here is called.
import type { ComponentProps } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import {
  ConfirmToolDialog,
  defaultLabels,
  useToolConfirmation,
  useToolConfirmationRequest,
  type ConfirmToolDialogProps,
  type ConfirmToolLabels,
  type ConfirmToolLabelsOverride,
  type ConfirmationOutcome,
  type ConfirmationState,
  type ConfirmationStatus,
  type ConfirmationView,
  type JsonValue,
  type ToolgateLabelsOverride,
  type UseToolConfirmationResult,
} from 'toolgate';

describe('useToolConfirmation types', () => {
  it('returns the snapshot and actions bound to the shown request', () => {
    type R = ReturnType<typeof useToolConfirmation>;
    expectTypeOf<R>().toEqualTypeOf<UseToolConfirmationResult>();
    expectTypeOf<R['status']>().toEqualTypeOf<ConfirmationStatus>();
    expectTypeOf<R['current']>().toEqualTypeOf<ConfirmationView | null>();
    expectTypeOf<R['queue']>().toEqualTypeOf<readonly ConfirmationView[]>();
    expectTypeOf<R['last']>().toEqualTypeOf<ConfirmationState['last']>();
    expectTypeOf<R['waiting']>().toBeNumber();
    expectTypeOf<R['approve']>().toEqualTypeOf<() => boolean>();
    expectTypeOf<R['deny']>().parameters.toEqualTypeOf<[reason?: string]>();
    expectTypeOf<R['request']>().returns.toEqualTypeOf<Promise<ConfirmationOutcome>>();
  });

  it('takes an optional controller', () => {
    expectTypeOf(useToolConfirmation).parameters.toEqualTypeOf<[controller?: UseToolConfirmationResult['controller']]>();
  });
});

describe('useToolConfirmationRequest types', () => {
  it('needs open, toolName and arguments; onApprove gets the frozen JSON snapshot', () => {
    type O = Parameters<typeof useToolConfirmationRequest>[0];
    expectTypeOf<O['open']>().toEqualTypeOf<boolean>();
    expectTypeOf<O['toolName']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<O['onApprove']>>().parameter(0).toEqualTypeOf<JsonValue>();
    expectTypeOf<ReturnType<typeof useToolConfirmationRequest>['outcome']>().toEqualTypeOf<ConfirmationOutcome | null>();
  });
});

describe('ConfirmToolDialog types', () => {
  it('keeps the names docs/api.md lists', () => {
    expectTypeOf<ComponentProps<typeof ConfirmToolDialog>>().toEqualTypeOf<ConfirmToolDialogProps>();
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('open');
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('toolName');
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('arguments');
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('room');
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('onResult');
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('onOpenChange');
    expectTypeOf<ConfirmToolDialogProps>().toHaveProperty('descriptor');
    expectTypeOf<NonNullable<ConfirmToolDialogProps['onResult']>>().parameter(0).toEqualTypeOf<ConfirmationOutcome>();
    expectTypeOf<NonNullable<ConfirmToolDialogProps['confirmStep']>>().toEqualTypeOf<'type-name' | 'hold'>();
  });

  it('takes its strings from labels.confirm, overridable in part', () => {
    expectTypeOf(defaultLabels.confirm).toEqualTypeOf<ConfirmToolLabels>();
    expectTypeOf({ approve: 'Send', status: { invoking: 'Sending…' } }).toMatchTypeOf<ConfirmToolLabelsOverride>();
    expectTypeOf({ confirm: { deny: 'Refuser' } }).toMatchTypeOf<ToolgateLabelsOverride>();
    // @ts-expect-error approve is a string, not a function
    const wrong: ConfirmToolLabelsOverride = { approve: () => 'Send' };
    void wrong;
  });
});
