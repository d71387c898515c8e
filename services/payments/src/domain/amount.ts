/**
 * Amounts cross the wire as decimal strings and live in the ledger as integer base units
 * (bigint), never as floats: 0.1 + 0.2 must not settle as 0.30000000000000004 USDC.
 */

export const AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,29})(\.[0-9]{1,18})?$/;

export type AmountParse = { ok: true; units: bigint } | { ok: false; reason: 'malformed' | 'too_precise' | 'not_positive' };

/** `"12.5"` with 6 decimals → 12_500_000n. More fractional digits than the asset has is refused, not rounded. */
export function parseAmount(amount: string, decimals: number): AmountParse {
  if (!AMOUNT_PATTERN.test(amount)) return { ok: false, reason: 'malformed' };
  const [whole, fraction = ''] = amount.split('.') as [string, string?];
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > decimals) return { ok: false, reason: 'too_precise' };
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(trimmed.padEnd(decimals, '0') || '0');
  if (units <= 0n) return { ok: false, reason: 'not_positive' };
  return { ok: true, units };
}

/** 12_500_000n with 6 decimals → `"12.5"`; the canonical form, so `"12.50"` and `"12.5"` hash alike. */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
