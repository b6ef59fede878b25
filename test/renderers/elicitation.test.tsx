/**
 * MCP elicitation: a form request is the editor's schema form whose answer is checked against the
 * schema before it is sent; decline and cancel answer so; a URL request shows where the link
 * really goes before anything opens, and opens only on a click.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ElicitationDialog, checkElicitationContent, describeUrl, readElicitationRequest, useElicitation, type ElicitationRequest, type ElicitationSchema, type ElicitResult } from 'toolgate/renderers';

const schema: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    seats: { type: 'integer', minimum: 1, maximum: 9 },
    plan: { type: 'string', enum: ['free', 'pro'] },
    notify: { type: 'boolean', default: true },
  },
  required: ['name', 'seats'],
};
const formRequest: ElicitationRequest = { message: 'Who is booking?', requestedSchema: schema };

function show(request: ElicitationRequest | null, openUrl = vi.fn()) {
  const onResult = vi.fn<(result: ElicitResult) => void>();
  render(
    <StrictMode>
      <ElicitationDialog request={request} onResult={onResult} serverName="Bookings" openUrl={openUrl} />
    </StrictMode>,
  );
  return { onResult, openUrl };
}

describe('checkElicitationContent', () => {
  it('accepts content that meets the schema and refuses each kind of breach, naming the key', () => {
    expect(checkElicitationContent(schema, { name: 'Ada', seats: 2 })).toEqual({ ok: true, content: { name: 'Ada', seats: 2 } });
    const bad = checkElicitationContent(schema, { name: 'A', seats: 2.5, email: 'nope', plan: 'gold', notify: 'yes', extra: 1 });
    expect(bad.ok).toBe(false);
    const issues = bad.ok ? [] : bad.issues;
    expect(Object.fromEntries(issues.map((i) => [i.key, i.message]))).toEqual({
      extra: 'this key is not asked for',
      name: 'must be at least 2 characters',
      email: 'expected an email address',
      seats: 'expected a whole number',
      plan: 'must be one of free, pro',
      notify: 'expected true or false',
    });
    expect(checkElicitationContent(schema, { name: 'Ada' })).toEqual({ ok: false, issues: [{ key: 'seats', message: 'required' }] });
    expect(checkElicitationContent(schema, { name: 'Ada', seats: 10 })).toMatchObject({ ok: false, issues: [{ key: 'seats', message: 'must be at most 9' }] });
    expect(checkElicitationContent(schema, null)).toMatchObject({ ok: false });
  });

  it('checks dates, date-times and URIs for real, not by shape alone', () => {
    const dated: ElicitationSchema = { type: 'object', properties: { d: { type: 'string', format: 'date' }, t: { type: 'string', format: 'date-time' }, u: { type: 'string', format: 'uri' } } };
    expect(checkElicitationContent(dated, { d: '2024-02-29', t: '2024-02-29T10:00:00Z', u: 'https://a.test/' }).ok).toBe(true);
    expect(checkElicitationContent(dated, { d: '2023-02-29' }).ok).toBe(false);
    expect(checkElicitationContent(dated, { t: '2024-02-29 10:00' }).ok).toBe(false);
    expect(checkElicitationContent(dated, { u: 'not a uri' }).ok).toBe(false);
  });
});

describe('readElicitationRequest', () => {
  it('refuses schemas that are not flat objects of primitives, and URLs that are not http(s)', () => {
    expect(readElicitationRequest(formRequest)).toMatchObject({ ok: true, request: { mode: 'form' } });
    expect(readElicitationRequest({ message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } })).toEqual({ ok: false, reason: 'property "a": type "object" is not a primitive (string, number, integer, boolean)' });
    expect(readElicitationRequest({ message: 'x', requestedSchema: { type: 'array' } })).toMatchObject({ ok: false });
    expect(readElicitationRequest({ mode: 'url', message: 'x', url: 'javascript:alert(1)' })).toMatchObject({ ok: false, reason: expect.stringContaining('javascript:') });
    expect(readElicitationRequest({ mode: 'url', message: 'x', url: 'data:text/html,hi' })).toMatchObject({ ok: false });
    expect(readElicitationRequest('nonsense')).toMatchObject({ ok: false });
    expect(readElicitationRequest({ mode: 'other', message: 'x' })).toMatchObject({ ok: false });
  });
});

describe('describeUrl', () => {
  it('names the host a userinfo trick really goes to, and warns of it', () => {
    const target = describeUrl('https://good.com@evil.test/login');
    expect(target).toMatchObject({ ok: true, host: 'evil.test', registrable: 'evil.test', warnings: ['userinfo'] });
    expect(describeUrl('https://good.com:pw@login.evil.test/')).toMatchObject({ host: 'login.evil.test', registrable: 'evil.test', subdomain: 'login.', warnings: ['userinfo'] });
  });

  it('shows a look-alike (internationalised) name in punycode and warns of it', () => {
    // "аpple.com" with a Cyrillic а.
    expect(describeUrl('https://\u0430pple.com/')).toMatchObject({ ok: true, host: 'xn--pple-43d.com', registrable: 'xn--pple-43d.com', warnings: ['punycode'] });
    expect(describeUrl('https://apple.com/')).toMatchObject({ host: 'apple.com', warnings: [] });
  });

  it('emphasises the registrable part: two labels, three under known two-label suffixes', () => {
    expect(describeUrl('https://accounts.google.com.evil.test/')).toMatchObject({ registrable: 'evil.test', subdomain: 'accounts.google.com.' });
    expect(describeUrl('https://www.bbc.co.uk/')).toMatchObject({ registrable: 'bbc.co.uk', subdomain: 'www.' });
    expect(describeUrl('https://me.github.io/')).toMatchObject({ registrable: 'me.github.io', subdomain: '' });
    expect(describeUrl('http://10.0.0.1/')).toMatchObject({ registrable: '10.0.0.1', warnings: ['insecure', 'ip-address'] });
  });
});

describe('<ElicitationDialog> in form mode', () => {
  it("is the editor's form: typed answers are sent as the schema's types, defaults filled in", async () => {
    const user = userEvent.setup();
    const { onResult } = show(formRequest);
    const dialog = await screen.findByRole('dialog', { name: 'Bookings asks' });
    expect(dialog).toHaveAccessibleDescription('Who is booking?');
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveFocus());
    await user.keyboard('Ada');
    await user.type(within(dialog).getByRole('textbox', { name: /seats/ }), '3');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'plan' }), 'pro');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(onResult.mock.calls).toEqual([[{ action: 'accept', content: { name: 'Ada', seats: 3, plan: 'pro', notify: true } }]]);
  });

  it('keeps an answer that fails the schema: each problem beside its field, nothing sent', async () => {
    const user = userEvent.setup();
    const { onResult } = show(formRequest);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'A');
    await user.type(within(dialog).getByRole('textbox', { name: /seats/ }), '12');
    await user.type(within(dialog).getByRole('textbox', { name: /email/ }), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(/must be at least 2 characters/);
    expect(within(dialog).getByRole('textbox', { name: /seats/ })).toHaveAccessibleDescription(/must be at most 9/);
    expect(within(dialog).getByRole('textbox', { name: /email/ })).toHaveAccessibleDescription(/expected an email address/);
    expect(onResult).not.toHaveBeenCalled();
    // A number field that cannot be read is an error too, before the schema is asked.
    await user.clear(within(dialog).getByRole('textbox', { name: /seats/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /seats/ }), 'two');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(onResult).not.toHaveBeenCalled();
  });

  it('answers decline for Decline, once however often it is clicked', async () => {
    const user = userEvent.setup();
    const first = show(formRequest);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Decline' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Decline' }));
    expect(first.onResult.mock.calls).toEqual([[{ action: 'decline' }]]);
  });

  it('answers cancel for Escape', async () => {
    const user = userEvent.setup();
    const { onResult } = show(formRequest);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onResult.mock.calls).toEqual([[{ action: 'cancel' }]]);
  });

  it('answers cancel for Cancel', async () => {
    const user = userEvent.setup();
    const { onResult } = show(formRequest);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(onResult.mock.calls).toEqual([[{ action: 'cancel' }]]);
  });

  it('says why a request it cannot show is refused, and offers only Decline', async () => {
    const { onResult } = show({ message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'array' } } } } as unknown as ElicitationRequest);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This request cannot be shown: property "a": type "array" is not a primitive');
    expect(within(dialog).queryByRole('button', { name: 'Submit' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(onResult.mock.calls).toEqual([[{ action: 'decline' }]]);
  });
});

describe('<ElicitationDialog> in URL mode', () => {
  it('shows the real domain, emphasised, with the warning, and opens nothing until Open is clicked', async () => {
    const user = userEvent.setup();
    const { onResult, openUrl } = show({ mode: 'url', message: 'Sign in to continue', url: 'https://good.com@login.evil.test/start', elicitationId: 'e1' });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('evil.test', { selector: 'strong' })).toBeInTheDocument();
    expect(dialog.querySelector('[data-host]')).toHaveTextContent(/^login\.evil\.test$/);
    expect(dialog).not.toHaveTextContent('good.com');
    expect(dialog.querySelector('[data-warning="userinfo"]')).not.toBeNull();
    expect(openUrl).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Open evil.test' }));
    expect(openUrl.mock.calls).toEqual([['https://good.com@login.evil.test/start']]);
    expect(onResult.mock.calls).toEqual([[{ action: 'accept' }]]);
  });

  it('declines without opening', async () => {
    const user = userEvent.setup();
    const { onResult, openUrl } = show({ mode: 'url', message: 'Pay', url: 'https://pay.example.com/x' });
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Decline' }));
    expect(openUrl).not.toHaveBeenCalled();
    expect(onResult.mock.calls).toEqual([[{ action: 'decline' }]]);
  });
});

describe('useElicitation', () => {
  it('shows requests one at a time and resolves each with its answer; refuses one it cannot show', async () => {
    const user = userEvent.setup();
    let elicit!: (params: unknown) => Promise<ElicitResult>;
    function Host() {
      const elicitation = useElicitation();
      elicit = elicitation.elicit;
      return <ElicitationDialog request={elicitation.request} onResult={elicitation.respond} />;
    }
    render(<Host />);
    let a!: Promise<ElicitResult>;
    let b!: Promise<ElicitResult>;
    act(() => {
      a = elicit({ message: 'First?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
      b = elicit({ mode: 'url', message: 'Second', url: 'https://example.com/' });
    });
    await expect(elicit({ message: 'bad' })).rejects.toThrow('elicitation refused: requestedSchema is not an object schema with properties');
    const first = await screen.findByRole('dialog');
    expect(first).toHaveAccessibleDescription('First?');
    await user.click(within(first).getByRole('checkbox', { name: 'ok' }));
    await user.click(within(first).getByRole('button', { name: 'Submit' }));
    await expect(a).resolves.toEqual({ action: 'accept', content: { ok: true } });
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAccessibleDescription('Second'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await expect(b).resolves.toEqual({ action: 'cancel' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('choices with titles', () => {
  // The two ways MCP's elicitation schema titles a choice: the legacy `enumNames` beside `enum`,
  // and `oneOf` of `{ const, title }`. The person reads the titles; the answer carries the values.
  const legacy: ElicitationSchema = {
    type: 'object',
    properties: { plan: { type: 'string', title: 'Plan', enum: ['free', 'pro'], enumNames: ['Free', 'Pro, 9 € a month'] } },
    required: ['plan'],
  };
  const titled: ElicitationSchema = {
    type: 'object',
    properties: {
      region: {
        type: 'string',
        title: 'Region',
        oneOf: [
          { const: 'eu-west-3', title: 'Paris' },
          { const: 'eu-central-1', title: 'Frankfurt' },
        ],
        default: 'eu-central-1',
      },
    },
    required: ['region'],
  };

  const optionTexts = (select: HTMLElement) => [...select.querySelectorAll('option')].map((option) => option.textContent);

  it('shows enumNames as the titles of enum’s values, and answers the value', async () => {
    const user = userEvent.setup();
    const { onResult } = show({ message: 'Which plan?', requestedSchema: legacy });
    const dialog = await screen.findByRole('dialog');
    const select = within(dialog).getByRole('combobox', { name: 'Plan' });
    expect(optionTexts(select)).toEqual(['—', 'Free', 'Pro, 9 € a month']);
    await user.selectOptions(select, 'Pro, 9 € a month');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(onResult).toHaveBeenCalledTimes(1);
    expect(onResult).toHaveBeenCalledWith({ action: 'accept', content: { plan: 'pro' } });
  });

  it('shows a titled oneOf’s titles, starts from its default, and answers the const', async () => {
    const user = userEvent.setup();
    const { onResult } = show({ message: 'Where?', requestedSchema: titled });
    const dialog = await screen.findByRole('dialog');
    const select = within(dialog).getByRole('combobox', { name: 'Region' }) as HTMLSelectElement;
    expect(optionTexts(select)).toEqual(['Paris', 'Frankfurt']);
    expect(select.selectedOptions[0]?.textContent).toBe('Frankfurt');
    await user.selectOptions(select, 'Paris');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(onResult).toHaveBeenCalledWith({ action: 'accept', content: { region: 'eu-west-3' } });
  });

  it('checks an answer against the choices’ values, not their titles', () => {
    expect(checkElicitationContent(titled, { region: 'eu-west-3' }).ok).toBe(true);
    expect(checkElicitationContent(titled, { region: 'Paris' })).toEqual({ ok: false, issues: [{ key: 'region', message: 'must be one of eu-west-3, eu-central-1' }] });
    expect(checkElicitationContent(legacy, { plan: 'Free' })).toEqual({ ok: false, issues: [{ key: 'plan', message: 'must be one of free, pro' }] });
  });

  it('refuses titles that do not match their choices', () => {
    const ask = (plan: unknown) => readElicitationRequest({ message: 'Plan?', requestedSchema: { type: 'object', properties: { plan } } });
    expect(ask({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] })).toEqual({ ok: false, reason: 'property "plan": enumNames does not name each value of enum' });
    expect(ask({ type: 'string', enumNames: ['A'] })).toEqual({ ok: false, reason: 'property "plan": enumNames without enum' });
    expect(ask({ type: 'string', enum: ['a'], enumNames: [1] })).toEqual({ ok: false, reason: 'property "plan": enumNames is not a list of strings' });
    expect(ask({ type: 'string', oneOf: [] })).toEqual({ ok: false, reason: 'property "plan": oneOf is not a list of { const, title } choices of strings' });
    expect(ask({ type: 'string', oneOf: [{ const: 1, title: 'One' }] })).toMatchObject({ ok: false });
    expect(ask({ type: 'string', oneOf: [{ title: 'No value' }] })).toMatchObject({ ok: false });
    expect(ask({ type: 'string', enum: ['a'], oneOf: [{ const: 'a', title: 'A' }] })).toEqual({ ok: false, reason: 'property "plan": both enum and oneOf' });
    expect(ask({ type: 'string', oneOf: [{ const: 'a', title: 'A' }] })).toMatchObject({ ok: true });
  });
});
