import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { ExchangeClient } from './exchange-client.ts';
import { createGuard } from './guard.ts';
import { guardFailureToWire } from './guard-failure-to-wire.ts';
import { NOT_CONNECTOR_TEXT, wrongAudienceText } from './guard-texts.ts';

const ISSUER = 'http://auth.test';
const RESOURCE = 'http://research.test/mcp';
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
const sign = (claims: Record<string, unknown>, expSeconds = 3600) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(ISSUER).setIssuedAt().setExpirationTime(`${expSeconds}s`).setJti('j1').sign(privateKey);

const noExchange: ExchangeClient = {
  exchange: async () => {
    throw new Error('exchange must not be called for a JWT');
  },
  clear: () => {},
};

describe('createGuard (seed 001: validity, then audience, then session kind)', () => {
  const guard = (isAccessTokenRevoked?: () => Promise<boolean>) =>
    createGuard({ resource: RESOURCE, issuer: ISSUER, chainId: null, exchangeClient: noExchange, jwks, ...(isAccessTokenRevoked ? { isAccessTokenRevoked } : {}) });

  it('admits an OAuth access token for this resource with a connector session', async () => {
    const token = await sign({ sub: 'u', aud: RESOURCE, session_kind: 'connector', token_use: 'access', scope: 'research:read', client_id: 'c' });
    expect(await guard().authenticate(token)).toMatchObject({ ok: true, session: { subject: 'u', clientId: 'c', scopes: ['research:read'] } });
  });

  it('audience before kind: a personal token for another resource gets the audience text', async () => {
    const token = await sign({ sub: 'u', aud: 'http://other.test/mcp', session_kind: 'personal', token_use: 'access' });
    const result = await guard().authenticate(token);
    expect(result).toEqual({ ok: false, failure: { reason: 'wrong_audience' } });
    expect(guardFailureToWire({ reason: 'wrong_audience' }, RESOURCE, 'x').body).toEqual({ error: wrongAudienceText(RESOURCE) });
  });

  it('a personal access token for this resource gets the not-a-connector text', async () => {
    const token = await sign({ sub: 'u', aud: RESOURCE, session_kind: 'personal', token_use: 'access' });
    expect(await guard().authenticate(token)).toEqual({ ok: false, failure: { reason: 'not_connector' } });
    expect(guardFailureToWire({ reason: 'not_connector' }, RESOURCE, 'x').body).toEqual({ error: NOT_CONNECTOR_TEXT });
  });

  it.each([
    ['a trailing suffix', `${RESOURCE}-other`],
    ['the bare origin', 'http://research.test/'],
  ])('refuses a token whose audience is %s (RS-7)', async (_label, aud) => {
    const token = await sign({ sub: 'u', aud, session_kind: 'connector', token_use: 'access' });
    expect(await guard().authenticate(token)).toEqual({ ok: false, failure: { reason: 'wrong_audience' } });
  });

  it('a revoked access token is invalid_token; a revocation check that cannot reach auth is a 503', async () => {
    const token = await sign({ sub: 'u', aud: RESOURCE, session_kind: 'connector', token_use: 'access' });
    expect(await guard(async () => true).authenticate(token)).toEqual({ ok: false, failure: { reason: 'invalid_token', detail: 'the token has been revoked' } });
    const down = await guard(async () => {
      throw new Error('revocation status unavailable: fetch failed');
    }).authenticate(token);
    expect(down).toMatchObject({ ok: false, failure: { reason: 'auth_unavailable' } });
    if (down.ok) throw new Error('unreachable');
    expect(guardFailureToWire(down.failure, RESOURCE, 'x')).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
  });

  it('names the validation failure of an expired token', async () => {
    const token = await sign({ sub: 'u', aud: RESOURCE, session_kind: 'connector', token_use: 'access' }, -10);
    expect(await guard().authenticate(token)).toEqual({ ok: false, failure: { reason: 'invalid_token', detail: 'the token has expired' } });
  });

  it('an empty or non-Bearer credential is invalid_token; none at all is missing_token', async () => {
    expect(await guard().authenticate('')).toMatchObject({ ok: false, failure: { reason: 'invalid_token' } });
    expect(await guard().authenticate(undefined)).toEqual({ ok: false, failure: { reason: 'missing_token' } });
  });
});
