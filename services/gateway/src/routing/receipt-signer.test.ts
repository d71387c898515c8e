import { compactVerify, exportJWK, generateKeyPair, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { createReceiptSigner } from './receipt-signer.ts';

describe('createReceiptSigner (ES256 compact JWS, RFC 7515 §7.1 / RFC 7518 §3.4)', () => {
  it('signs a receipt hash that a standard JOSE verifier accepts, and rejects any other hash', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const signer = await createReceiptSigner({ kid: 'k1', privateJwk: await exportJWK(privateKey), publicJwk });
    const hash = 'a'.repeat(64);
    const jws = await signer.sign(hash);
    const { payload, protectedHeader } = await compactVerify(jws, await importJWK(publicJwk, 'ES256'));
    expect(new TextDecoder().decode(payload)).toBe(hash);
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'k1' });
    await expect(signer.verify(hash, jws)).resolves.toBe(true);
    await expect(signer.verify('b'.repeat(64), jws)).resolves.toBe(false);
    // Flip one bit of r (not a base64url character: the last one carries padding bits, so
    // rewriting it can leave the signature unchanged and made this test flaky).
    const [h, p, s] = jws.split('.');
    const bytes = Buffer.from(s!, 'base64url');
    bytes[10] = bytes[10]! ^ 0x01;
    await expect(signer.verify(hash, `${h}.${p}.${bytes.toString('base64url')}`)).resolves.toBe(false);
  });
});
