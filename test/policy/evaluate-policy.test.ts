// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPolicyRule,
  evaluatePolicy,
  parseShellCommand,
  readJsonPointer,
  type PolicyRequest,
  type PolicyRule,
} from 'toolgate/policy';

const LOW = { effect: 'write', risk: 'low', requiresConfirmation: true } as const;
const HIGH = { effect: 'write', risk: 'high', requiresConfirmation: true } as const;
const NOW = 1_800_000_000_000;

const rule = (over: Partial<PolicyRule> & Pick<PolicyRule, 'id' | 'decision'>): PolicyRule => ({
  tools: ['send_mail'],
  scope: { kind: 'session' },
  origin: 'app',
  ...over,
});
const request = (over: Partial<PolicyRequest> = {}): PolicyRequest => ({
  toolName: 'send_mail',
  arguments: { to: 'ada@example.test', amount: 40 },
  descriptor: LOW,
  now: NOW,
  ...over,
});

describe('precedence', () => {
  it('lets a matching deny win over a matching ask and allow, whatever their order', () => {
    const rules = [rule({ id: 'a', decision: 'allow' }), rule({ id: 'q', decision: 'ask' }), rule({ id: 'd', decision: 'deny' })];
    expect(evaluatePolicy(rules, request())).toEqual({ decision: 'deny', ruleId: 'd', why: 'denied by rule d' });
    expect(evaluatePolicy([...rules].reverse(), request()).ruleId).toBe('d');
  });

  it('lets a matching ask win over a matching allow', () => {
    const result = evaluatePolicy([rule({ id: 'a', decision: 'allow' }), rule({ id: 'q', decision: 'ask' })], request());
    expect(result).toMatchObject({ decision: 'ask', ruleId: 'q' });
  });

  it('asks a person when no rule matches', () => {
    expect(evaluatePolicy([rule({ id: 'a', decision: 'allow', tools: ['other'] })], request())).toEqual({
      decision: 'ask',
      why: 'no rule matches: a person decides',
    });
  });

  it('names the rule that allowed a request', () => {
    expect(evaluatePolicy({ rules: [rule({ id: 'mail', decision: 'allow' })] }, request())).toEqual({
      decision: 'allow',
      ruleId: 'mail',
      why: 'allowed by rule mail',
    });
  });
});

describe('what is never allowed automatically', () => {
  it.each([
    ['a high-risk tool', HIGH, 'high-risk'],
    ['a tool whose risk is not declared', undefined, 'not declared'],
    ['a tool confirmed every time', { ...LOW, confirmEveryTime: true }, 'every time'],
  ])('leaves %s to a person even when an allow rule matches', (_, descriptor, words) => {
    const result = evaluatePolicy([rule({ id: 'any', decision: 'allow', tools: ['*'] })], request({ descriptor }));
    expect(result.decision).toBe('ask');
    expect(result.why).toContain(words);
  });

  it('still lets a deny rule answer a high-risk tool: saying no is always safe', () => {
    expect(evaluatePolicy([rule({ id: 'no', decision: 'deny' })], request({ descriptor: HIGH })).decision).toBe('deny');
  });

  it('refuses an allow rule for a high-risk tool when it is made, with the reason', () => {
    const made = createPolicyRule(rule({ id: 'deploy-all', decision: 'allow', tools: ['deploy'] }), { describe: () => HIGH });
    expect(made).toEqual({ ok: false, reason: 'rule deploy-all: deploy: a high-risk tool is never allowed automatically: a person decides' });
  });

  it('makes a deny rule for a high-risk tool', () => {
    expect(createPolicyRule(rule({ id: 'no-deploy', decision: 'deny', tools: ['deploy'] }), { describe: () => HIGH }).ok).toBe(true);
  });

  it('never lets a random policy allow a high-risk, undeclared or every-time request (property)', () => {
    const condition = fc.oneof(
      fc.record({ pointer: fc.constantFrom('/to', '/amount', '/x'), equals: fc.oneof(fc.string(), fc.integer()) }),
      fc.record({ pointer: fc.constantFrom('/to', '/amount'), minimum: fc.integer({ min: -10, max: 100 }) }),
      fc.record({ pointer: fc.constant('/to'), prefix: fc.string({ maxLength: 3 }) }),
    );
    const arbitraryRule = fc.record({
      id: fc.string({ minLength: 1, maxLength: 4 }),
      decision: fc.constantFrom('allow', 'deny', 'ask'),
      tools: fc.constantFrom(['*'], ['send_mail'], ['other']),
      when: fc.option(fc.array(condition, { maxLength: 2 }), { nil: undefined }),
      scope: fc.constantFrom({ kind: 'session' }, { kind: 'until', until: NOW + 1 }, { kind: 'turn', turnId: 't1' }),
      origin: fc.constantFrom('app', 'person', 'grant'),
    }) as fc.Arbitrary<PolicyRule>;
    const guarded = fc.constantFrom<PolicyRequest['descriptor']>(HIGH, undefined, null, { ...LOW, confirmEveryTime: true }, { effect: 'read' });
    fc.assert(
      fc.property(fc.array(arbitraryRule, { maxLength: 6 }), guarded, fc.boolean(), (rules, descriptor, shadow) => {
        const result = evaluatePolicy({ rules, mode: shadow ? 'shadow' : 'enforce' }, request({ descriptor, turnId: 't1' }));
        expect(result.decision).not.toBe('allow');
        expect(result.wouldDecide?.decision).not.toBe('allow');
      }),
      { seed: 20261202, numRuns: 500 },
    );
  });
});

describe('shadow mode', () => {
  it('reports what the policy would decide and still asks a person', () => {
    const result = evaluatePolicy({ mode: 'shadow', rules: [rule({ id: 'mail', decision: 'allow' })] }, request());
    expect(result).toEqual({
      decision: 'ask',
      why: 'the policy is in shadow mode: a person decides',
      wouldDecide: { decision: 'allow', ruleId: 'mail', why: 'allowed by rule mail' },
    });
  });
});

describe('scopes', () => {
  it('holds a turn rule for its own turn only', () => {
    const rules = [rule({ id: 't', decision: 'allow', scope: { kind: 'turn', turnId: 'turn-1' } })];
    expect(evaluatePolicy(rules, request({ turnId: 'turn-1' })).decision).toBe('allow');
    expect(evaluatePolicy(rules, request({ turnId: 'turn-2' })).decision).toBe('ask');
    expect(evaluatePolicy(rules, request()).decision).toBe('ask');
  });

  it('ends an until rule at its time', () => {
    const rules = [rule({ id: 'hour', decision: 'allow', scope: { kind: 'until', until: NOW + 1000 } })];
    expect(evaluatePolicy(rules, request({ now: NOW + 999 })).decision).toBe('allow');
    expect(evaluatePolicy(rules, request({ now: NOW + 1000 })).decision).toBe('ask');
  });

  it('stops a rule made for one definition of a tool from answering for a changed one', () => {
    const rules = [rule({ id: 'bound', decision: 'allow', definitionFingerprint: 'aaaa' })];
    expect(evaluatePolicy(rules, request({ definitionFingerprint: 'aaaa' })).decision).toBe('allow');
    expect(evaluatePolicy(rules, request({ definitionFingerprint: 'bbbb' })).decision).toBe('ask');
    expect(evaluatePolicy(rules, request()).decision).toBe('ask');
  });
});

describe('conditions on the arguments', () => {
  const allowWhen = (when: PolicyRule['when']) => [rule({ id: 'w', decision: 'allow', when })];
  const decides = (when: PolicyRule['when'], args: unknown) => evaluatePolicy(allowWhen(when), request({ arguments: args })).decision;

  it('matches equals structurally, whatever the key order', () => {
    expect(decides([{ pointer: '/to', equals: { a: 1, b: [2] } }], { to: { b: [2], a: 1 } })).toBe('allow');
    expect(decides([{ pointer: '/to', equals: { a: 1 } }], { to: { a: 1, b: 2 } })).toBe('ask');
  });

  it('matches oneOf, prefix and numeric bounds', () => {
    expect(decides([{ pointer: '/to', oneOf: ['a', 'b'] }], { to: 'b' })).toBe('allow');
    expect(decides([{ pointer: '/to', oneOf: ['a', 'b'] }], { to: 'c' })).toBe('ask');
    expect(decides([{ pointer: '/path', prefix: 'docs/' }], { path: 'docs/a.md' })).toBe('allow');
    expect(decides([{ pointer: '/path', prefix: 'docs/' }], { path: 'src/docs/a.md' })).toBe('ask');
    expect(decides([{ pointer: '/amount', minimum: 1, maximum: 100 }], { amount: 100 })).toBe('allow');
    expect(decides([{ pointer: '/amount', minimum: 1, maximum: 100 }], { amount: 100.5 })).toBe('ask');
    expect(decides([{ pointer: '/amount', maximum: 100 }], { amount: '50' })).toBe('ask');
  });

  it('anchors a pattern at both ends: a match inside the string is not a match', () => {
    const when = [{ pointer: '/to', pattern: '[a-z]+@example\\.test' }];
    expect(decides(when, { to: 'ada@example.test' })).toBe('allow');
    expect(decides(when, { to: 'ada@example.test.evil.example' })).toBe('ask');
    expect(decides(when, { to: 'x ada@example.test' })).toBe('ask');
    expect(decides([{ pointer: '/to', pattern: 'a|b' }], { to: 'ab' })).toBe('ask');
  });

  it('requires every condition, and never matches what is not there', () => {
    const when = [{ pointer: '/to', equals: 'ada@example.test' }, { pointer: '/amount', maximum: 50 }];
    expect(decides(when, { to: 'ada@example.test', amount: 40 })).toBe('allow');
    expect(decides(when, { to: 'ada@example.test', amount: 60 })).toBe('ask');
    expect(decides(when, { to: 'ada@example.test' })).toBe('ask');
  });

  it('reads JSON Pointers with their escapes, and own properties only', () => {
    expect(readJsonPointer({ 'a/b': { '~c': 1 } }, '/a~1b/~0c')).toEqual({ found: true, value: 1 });
    expect(readJsonPointer({ list: [5, 6] }, '/list/1')).toEqual({ found: true, value: 6 });
    expect(readJsonPointer({ list: [5, 6] }, '/list/01')).toEqual({ found: false });
    expect(readJsonPointer({}, '/constructor')).toEqual({ found: false });
    expect(readJsonPointer({}, '/__proto__')).toEqual({ found: false });
    expect(readJsonPointer({ a: 1 }, 'a')).toEqual({ found: false });
    const args = JSON.parse('{"__proto__": {"admin": true}}');
    expect(decides([{ pointer: '/__proto__/admin', equals: true }], args)).toBe('allow');
    expect(decides([{ pointer: '/admin', equals: true }], args)).toBe('ask');
  });
});

describe('rules over shell commands', () => {
  const allowCommand = (command: { program: string; args?: string[]; exact?: boolean; allowCompound?: boolean; allowRedirection?: boolean; allowSubstitution?: boolean }) => [
    rule({ id: 'cmd', decision: 'allow', tools: ['shell'], when: [{ pointer: '/command', command }] }),
  ];
  const run = (command: unknown, match: Parameters<typeof allowCommand>[0]) =>
    evaluatePolicy(allowCommand(match), request({ toolName: 'shell', arguments: { command } })).decision;

  it('matches the parsed program and its first words', () => {
    expect(run('git status --short', { program: 'git', args: ['status'] })).toBe('allow');
    expect(run("git 'status'", { program: 'git', args: ['status'] })).toBe('allow');
    expect(run('git push', { program: 'git', args: ['status'] })).toBe('ask');
    expect(run('git status --short', { program: 'git', args: ['status'], exact: true })).toBe('ask');
    expect(run('gitk', { program: 'git' })).toBe('ask');
  });

  it('does not match a command that begins with a redirection (>&echo touch x is not echo)', () => {
    expect(run('>&echo touch x', { program: 'echo' })).toBe('ask');
    expect(parseShellCommand('>&echo touch x')).toMatchObject({ argv: ['echo', 'touch', 'x'], redirection: true });
  });

  it.each([
    ['a second command after ;', 'echo hi; rm -rf ~'],
    ['a second command after &&', 'echo hi && rm -rf ~'],
    ['a pipe', 'echo hi | sh'],
    ['a background job', 'echo hi & rm -rf ~'],
    ['a line break', 'echo hi\nrm -rf ~'],
    ['a subshell', '(echo hi)'],
  ])('does not match a compound command: %s', (_, command) => {
    expect(run(command, { program: 'echo' })).toBe('ask');
  });

  it.each([
    ['output redirection', 'echo hi > ~/.bashrc'],
    ['appending', 'echo hi >> ~/.bashrc'],
    ['input redirection', 'echo < /etc/shadow'],
  ])('does not match a redirection: %s', (_, command) => {
    expect(run(command, { program: 'echo' })).toBe('ask');
  });

  it.each([
    ['$( )', 'echo $(rm -rf ~)'],
    ['backquotes', 'echo `rm -rf ~`'],
    ['a variable', 'echo $HOME'],
    ['a braced variable', 'echo ${HOME}'],
    ['a variable in double quotes', 'echo "$HOME"'],
    ['process substitution', 'echo <(ls)'],
  ])('does not match a substitution: %s', (_, command) => {
    expect(run(command, { program: 'echo' })).toBe('ask');
  });

  it('matches what a rule explicitly allows: compound, redirection, substitution', () => {
    expect(run('echo hi; echo there', { program: 'echo', allowCompound: true })).toBe('allow');
    expect(run('echo hi > out.txt', { program: 'echo', allowRedirection: true })).toBe('allow');
    expect(run('echo $HOME', { program: 'echo', allowSubstitution: true })).toBe('allow');
    expect(run("echo '$HOME'", { program: 'echo' })).toBe('allow');
  });

  it('does not take a variable assignment or a glob for the program', () => {
    expect(run('PATH=/tmp git status', { program: 'git' })).toBe('ask');
    expect(run('*', { program: '*' })).toBe('ask');
    expect(run('ls *.md', { program: 'ls' })).toBe('allow');
    expect(run('rm *', { program: 'rm', args: ['*'] })).toBe('ask');
  });

  it('takes an argument vector as it is, with no shell in between', () => {
    expect(run(['git', 'status'], { program: 'git', args: ['status'] })).toBe('allow');
    expect(run(['git', 'status; rm -rf ~'], { program: 'git', args: ['status'] })).toBe('ask');
    expect(run(['git', 1], { program: 'git' })).toBe('ask');
  });
});

describe('rules as plain data', () => {
  it('survive JSON and decide the same after it', () => {
    const rules = [
      rule({ id: 'a', decision: 'allow', when: [{ pointer: '/to', pattern: '.+@example\\.test' }], scope: { kind: 'until', until: NOW + 60_000 } }),
      rule({ id: 'd', decision: 'deny', when: [{ pointer: '/amount', minimum: 1000 }] }),
    ];
    const revived = (JSON.parse(JSON.stringify(rules)) as unknown[]).map((r) => {
      const made = createPolicyRule(r);
      if (!made.ok) throw new Error(made.reason);
      return made.rule;
    });
    for (const args of [{ to: 'ada@example.test', amount: 5 }, { to: 'x@evil.example', amount: 5 }, { to: 'ada@example.test', amount: 5000 }]) {
      expect(evaluatePolicy(revived, request({ arguments: args }))).toEqual(evaluatePolicy(rules, request({ arguments: args })));
    }
  });

  it('refuses a malformed rule with a reason a person can act on', () => {
    expect(createPolicyRule({ id: 'x', decision: 'maybe', tools: ['a'], scope: { kind: 'session' }, origin: 'app' })).toEqual({
      ok: false,
      reason: "rule x: decision must be 'allow', 'deny' or 'ask'",
    });
    expect(createPolicyRule(rule({ id: 'p', decision: 'allow', when: [{ pointer: 'to', equals: 1 }] }))).toEqual({
      ok: false,
      reason: 'rule p: when[0]: pointer must be a JSON Pointer such as /path/0/to',
    });
    expect(createPolicyRule(rule({ id: 'r', decision: 'allow', when: [{ pointer: '/to', pattern: '(' }] }))).toMatchObject({ ok: false, reason: 'rule r: when[0]: pattern must be a valid regular expression' });
    expect(createPolicyRule(rule({ id: 'two', decision: 'deny', when: [{ pointer: '/to', equals: 1, prefix: 'a' } as never] }))).toMatchObject({ ok: false });
    expect(createPolicyRule(rule({ id: 'u', decision: 'deny', scope: { kind: 'until', until: Number.NaN } }))).toMatchObject({ ok: false });
    expect(createPolicyRule(null)).toEqual({ ok: false, reason: 'rule: a rule is an object' });
  });

  it('returns a frozen copy that the caller changing its object cannot change', () => {
    const given = rule({ id: 'c', decision: 'deny', tools: ['a'] });
    const made = createPolicyRule(given);
    if (!made.ok) throw new Error(made.reason);
    (given.tools as string[]).push('b');
    expect(made.rule.tools).toEqual(['a']);
    expect(Object.isFrozen(made.rule) && Object.isFrozen(made.rule.tools)).toBe(true);
  });
});
