import { CliUsageError } from '../../shared/cli.ts';

export interface ParsedArgs {
  readonly positional: string[];
  /** Every value given for each flag, in order (`--category a --category b`). */
  readonly flags: Map<string, string[]>;
  readonly switches: Set<string>;
}

/**
 * `--name value`, `--name=value` and bare switches. Which flags are switches is declared by
 * the command, so a value can never be mistaken for the next flag.
 */
export function parseArgs(argv: readonly string[], switchNames: readonly string[] = []): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (switchNames.includes(name)) {
      switches.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new CliUsageError(`--${name} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { positional, flags, switches };
}

export function requiredFlag(args: ParsedArgs, name: string): string {
  const value = args.flags.get(name)?.at(-1);
  if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

export function optionalFlag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}
