import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliUsageError } from './cli.ts';

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * Every command's flags, parsed strictly by node:util: an unknown flag (`--emial`) or a flag
 * without its value is a usage error naming it, never silently ignored or taken from the next
 * argument. Booleans are declared, so a value can never be mistaken for a switch.
 */
export function parseCommandArgs<O extends CliOptions>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new CliUsageError(usageMessage(err as Error & { code?: string }));
  }
}

/** node:util's messages, shortened to the flag at fault. */
function usageMessage(err: Error & { code?: string }): string {
  const flag = /'(-{1,2}[^' ]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return flag ? `Unknown flag ${flag}` : err.message;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (!flag) return err.message;
      return err.message.includes('does not take an argument') ? `${flag} is a switch and takes no value` : `${flag} needs a value`;
    default:
      return err.message;
  }
}

/** The flag's value, or a usage error naming it when it is missing or empty. */
export function requiredFlag(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  const last = Array.isArray(value) ? value.at(-1) : value;
  if (typeof last !== 'string' || last === '') throw new CliUsageError(`--${name} is required`);
  return last;
}
