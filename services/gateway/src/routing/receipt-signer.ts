import { CompactSign, compactVerify, importJWK, type CryptoKey, type JWK } from 'jose';

/**
 * Receipts are signed ES256 over their hash, with a key every replica shares (gw_signing_keys).
 * The public half is published at `/.well-known/gateway-receipts-jwks.json` so anyone holding a
 * receipt can check it offline; `validate_task_result` also checks it against the stored row.
 */
export interface ReceiptSigner {
  readonly kid: string;
  readonly publicJwk: Record<string, unknown>;
  sign(receiptHash: string): Promise<string>;
  verify(receiptHash: string, signature: string): Promise<boolean>;
}

export async function createReceiptSigner(key: { kid: string; privateJwk: Record<string, unknown>; publicJwk: Record<string, unknown> }): Promise<ReceiptSigner> {
  const privateKey = (await importJWK(key.privateJwk as JWK, 'ES256')) as CryptoKey;
  const publicKey = (await importJWK(key.publicJwk as JWK, 'ES256')) as CryptoKey;
  const encoder = new TextEncoder();
  return {
    kid: key.kid,
    publicJwk: key.publicJwk,
    sign: (hash) => new CompactSign(encoder.encode(hash)).setProtectedHeader({ alg: 'ES256', kid: key.kid }).sign(privateKey),
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
