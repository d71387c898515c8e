import { randomBytes } from 'node:crypto';

/** A chain account address: 20 random bytes, lower-case hex (the DB CHECK pins the shape). */
export function newWalletAddress(random: (n: number) => Buffer = randomBytes): string {
  return `0x${random(20).toString('hex')}`;
}

export const WALLET_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
