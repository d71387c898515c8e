import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalTemplate, IdentitySlot, intentIdentityHash, intentIdentityTemplate } from '../../services/payments/src/domain/identity-hash.ts';

const ACTOR = '11111111-1111-4111-8111-111111111111';
const TO_WALLET = '22222222-2222-4222-8222-222222222222';
const WALLET = '33333333-3333-4333-8333-333333333333';

const fill = (t: { parts: readonly string[]; slots: readonly string[] }, values: Record<string, string>) =>
  t.parts.map((p, i) => (i < t.slots.length ? p + values[t.slots[i]!]! : p)).join('');

describe('intentIdentityHash', () => {
  it('is pinned: an open intent filed before a deploy still matches the same proposal after it', () => {
    // Computed by the implementation that filed the first intents; a change here would let a
    // retried proposal file a second intent next to one already waiting for the person.
    const identity = {
      kind: 'send',
      arguments: { asset_id: '153-usdc', amount_units: '2500000', to_wallet_id: TO_WALLET },
      actorUserId: ACTOR,
      chainId: '153',
      walletId: WALLET,
      workspaceId: ACTOR,
      requestId: 'r-"quoted"\u0000',
    };
    expect(intentIdentityHash(identity)).toBe('sha256:bae5b07853ef545bef1117c914bf065af22b3daced06f49fe28232c9277c44a1');
  });
});

describe('intentIdentityTemplate (the hash the filing statement computes)', () => {
  const requestIds = [null, 'plain', '","wallet":"x', '"33333333-3333-4333-8333-333333333333"', 'to_wallet_id', '\u0000\n\\"', 'ünïcødé 💸'];
  it.each(requestIds)('filled with the resolved ids it hashes exactly like intentIdentityHash (request_id %j)', (requestId) => {
    const template = intentIdentityTemplate({
      kind: 'send',
      arguments: { asset_id: '153-usdc', amount_units: '1', to_wallet_id: new IdentitySlot('to_wallet_id') },
      actorUserId: ACTOR,
      chainId: '153',
      walletId: new IdentitySlot('wallet_id'),
      workspaceId: ACTOR,
      requestId,
    });
    // The statement fills the slots in this order; the tool refuses any other.
    expect(template.slots).toEqual(['to_wallet_id', 'wallet_id']);
    const document = fill(template, { to_wallet_id: TO_WALLET, wallet_id: WALLET });
    const expected = intentIdentityHash({
      kind: 'send',
      arguments: { asset_id: '153-usdc', amount_units: '1', to_wallet_id: TO_WALLET },
      actorUserId: ACTOR,
      chainId: '153',
      walletId: WALLET,
      workspaceId: ACTOR,
      requestId,
    });
    expect(`sha256:${createHash('sha256').update(document).digest('hex')}`).toBe(expected);
  });

  it('canonicalJson is the template with no slots: keys sorted at every depth, undefined members dropped', () => {
    const value = { b: [1, { z: 'é', a: null }], a: 'x', u: undefined };
    expect(canonicalJson(value)).toBe('{"a":"x","b":[1,{"a":null,"z":"é"}]}');
    expect(canonicalTemplate(value)).toEqual({ parts: ['{"a":"x","b":[1,{"a":null,"z":"é"}]}'], slots: [] });
  });
});
