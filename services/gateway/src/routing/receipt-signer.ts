import { createPrivateKey, createPublicKey, sign as signBytes, type KeyObject } from 'node:crypto';
import { compactVerify, importJWK, type CryptoKey, type JWK } from 'jose';

/**
 * Receipts are signed ES256 over their hash, with a key every replica shares (gw_signing_keys).
 * The public half is published at `/.well-known/gateway-receipts-jwks.json` so anyone holding a
 * receipt can check it offline; `validate_task_result` also checks it against the stored row.
 *
 * Signing is on every routed call's hot path, so it uses node:crypto's synchronous ECDSA
 * (IEEE P1363 r||s, exactly what RFC 7518 §3.4 puts in a JWS) instead of an async WebCrypto
 * round trip; the output is a standard compact JWS that jose (below) and any JOSE library verify.
 */
export interface ReceiptSigner {
  readonly kid: string;
  readonly publicJwk: Record<string, unknown>;
  sign(receiptHash: string): Promise<string>;
  verify(receiptHash: string, signature: string): Promise<boolean>;
}

const b64url = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');

export function signCompactEs256(privateKey: KeyObject, kid: string, payload: string): string {
  const signingInput = `${b64url(JSON.stringify({ alg: 'ES256', kid }))}.${b64url(payload)}`;
  const signature = signBytes('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${b64url(signature)}`;
}

export async function createReceiptSigner(key: { kid: string; privateJwk: Record<string, unknown>; publicJwk: Record<string, unknown> }): Promise<ReceiptSigner> {
  const privateKey = createPrivateKey({ key: key.privateJwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  // Fail at boot, not on the first call, if the stored pair does not match.
  createPublicKey(privateKey);
  const publicKey = (await importJWK(key.publicJwk as JWK, 'ES256')) as CryptoKey;
  return {
    kid: key.kid,
    publicJwk: key.publicJwk,
    sign: async (hash) => signCompactEs256(privateKey, key.kid, hash),
    async verify(hash, signature) {
      try {
        const { payload } = await compactVerify(signature, publicKey, { algorithms: ['ES256'] });
        return new TextDecoder().decode(payload) === hash;
      } catch {
        return false;
      }
    },
  };
}
