import { LIVE_CHAIN_ID, TEST_CHAIN_ID, type Config } from '../../../../shared/config.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';

export type PaymentsHost = 'payments-test' | 'payments-live';
export const HOST_OF_CHAIN: Record<string, PaymentsHost> = { [TEST_CHAIN_ID]: 'payments-test', [LIVE_CHAIN_ID]: 'payments-live' };

/**
 * The web app never touches payments tables: it calls the payments host's internal routes with
 * an on-behalf-of token minted in-process for the signed-in person, marked `personal` — the only
 * subject kind the payments host lets confirm, fund or activate.
 */
export function createPaymentsClient(deps: { config: Config; accountService: AccountService; timeoutMs?: number }) {
  const { config, accountService } = deps;
  return async function callPayments(userId: string, host: PaymentsHost, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const endpoint = config.services[host];
    const { access_token } = await accountService.mintOboToken({
      userId,
      audience: endpoint.resource,
      subjectKind: 'personal',
      chainId: host === 'payments-test' ? TEST_CHAIN_ID : LIVE_CHAIN_ID,
      actor: config.issuer,
    });
    try {
      const res = await fetch(`${endpoint.publicUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${access_token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(deps.timeoutMs ?? config.authTimeoutMs * 2),
      });
      return { status: res.status, body: await res.json().catch(() => ({})) };
    } catch {
      return { status: 503, body: { error: 'The payments service is unavailable; try again shortly', code: 'downstream_failed' } };
    }
  };
}

export type PaymentsClient = ReturnType<typeof createPaymentsClient>;
