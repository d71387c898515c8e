import { describe, expect, it } from 'vitest';
import { parseCommandArgs, requiredFlag } from './cli-args.ts';
import { CliUsageError } from './cli.ts';

const OPTIONS = { email: { type: 'string' }, kyc: { type: 'boolean' }, category: { type: 'string', multiple: true } } as const;

describe('parseCommandArgs', () => {
  it('reads values, switches, repeated flags and positionals', () => {
    const { values, positionals } = parseCommandArgs(['--email', 'a@b.c', '--kyc', '--category=x', '--category', 'y', 'DIR'], OPTIONS);
    expect(values).toEqual({ email: 'a@b.c', kyc: true, category: ['x', 'y'] });
    expect(positionals).toEqual(['DIR']);
  });

  it.each([
    [['--emial', 'a@b.c'], 'Unknown flag --emial'],
    [['--email'], '--email needs a value'],
    [['--kyc=yes'], '--kyc is a switch and takes no value'],
  ])('refuses %j as a usage error naming the flag', (argv, message) => {
    expect(() => parseCommandArgs(argv, OPTIONS)).toThrow(new CliUsageError(message));
  });

  it('requiredFlag names a missing or empty flag', () => {
    expect(requiredFlag({ email: 'a@b.c' }, 'email')).toBe('a@b.c');
    expect(() => requiredFlag({}, 'email')).toThrow(new CliUsageError('--email is required'));
    expect(() => requiredFlag({ email: '' }, 'email')).toThrow(new CliUsageError('--email is required'));
  });
});
