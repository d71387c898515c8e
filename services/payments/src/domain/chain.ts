import { LIVE_CHAIN_ID, TEST_CHAIN_ID } from '../../../../shared/config.ts';

export type ChainMode = 'test' | 'live';

export function chainIdOf(mode: ChainMode): string {
  return mode === 'test' ? TEST_CHAIN_ID : LIVE_CHAIN_ID;
}

export function chainModeOf(chainId: string): ChainMode {
  return chainId === LIVE_CHAIN_ID ? 'live' : 'test';
}
