import { LIVE_CHAIN_ID, TEST_CHAIN_ID, type Config } from '../../../shared/config.ts';
import type { Db } from '../../../shared/db/client.ts';
import type { SessionKind } from '../../../shared/auth/session.ts';
import { AccountError } from './domain/account-errors.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './domain/api-key.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './domain/password-hash.ts';
import type { TokenMinter } from './domain/token-minter.ts';
import { findApiKeyByHash, insertApiKey, listApiKeys, revokeApiKey, type ApiKeyKind, type ApiKeyRecord } from './store/api-key-store.ts';
import { findUserByEmail, findUserById, insertUser, setLiveConnectorsEnabled, type User, type VerificationLevel } from './store/user-store.ts';
import { createWebSession, deleteWebSession, findWebSession } from './store/web-session-store.ts';

/** The verification floor for live money (seed 001: KycVerified). */
export const LIVE_VERIFICATION_FLOOR: VerificationLevel = 'kyc';

export interface ExchangedSession {
  session_token: string;
  token_type: 'Bearer';
  expires_in: number;
  session: { sub: string; session_kind: SessionKind; chain_id: string | null; aud: string; scope: string; key_id: string; exp: number };
}

/**
 * The account holder's side of auth: passwords, API keys, the raw-key exchange, live-money
 * opt-in and on-behalf-of tokens. Routes (REST and the web app) call this and never the store.
 */
export function createAccountService(deps: { config: Config; db: Db; minter: TokenMinter; resourceScopes: ReadonlyMap<string, readonly string[]> }) {
  const { config, db, minter, resourceScopes } = deps;

  function liveOptInRequired(): AccountError {
    return new AccountError(
      'live_connector_opt_in_required',
      'Live connectors are off for this account: enable live money in the web app first',
      { chain_id: LIVE_CHAIN_ID },
    );
  }

  return {
    async addUser(input: { email: string; password: string; verificationLevel: VerificationLevel }): Promise<User> {
      const user = await insertUser(db, { email: input.email, passwordHash: await hashPassword(input.password), verificationLevel: input.verificationLevel });
      if (!user) throw new AccountError('invalid_request', `A user with email ${input.email} already exists`);
      return user;
    },

    findUserById: (id: string) => findUserById(db, id),
    findUserByEmail: (email: string) => findUserByEmail(db, email),

    /** Same work whether or not the account exists, so response time does not reveal it. */
    async authenticatePassword(email: string, password: string): Promise<User> {
      const user = await findUserByEmail(db, email);
      const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !ok) throw new AccountError('invalid_credentials', 'Email or password is incorrect');
      return user;
    },

    async mintLoginToken(user: User) {
      const { token } = await minter.mint(
        { sub: user.id, aud: config.issuer, session_kind: 'personal', token_use: 'login' },
        config.accessTokenTtlSeconds,
      );
      return { access_token: token, token_type: 'Bearer' as const, expires_in: config.accessTokenTtlSeconds };
    },

    async createApiKey(user: User, input: { serviceName: string; kind: ApiKeyKind; allowedChains?: string[] }) {
      const allowedChains = input.allowedChains ?? [TEST_CHAIN_ID];
      // Re-read the flag at mint time: a stale session must not mint live keys after opt-out.
      const fresh = await findUserById(db, user.id);
      if (input.kind === 'connector' && allowedChains.includes(LIVE_CHAIN_ID) && !fresh?.liveConnectorsEnabled) throw liveOptInRequired();
      const apiKey = generateApiKey();
      const record = await insertApiKey(db, {
        userId: user.id,
        keyHash: hashApiKey(apiKey),
        displayPrefix: displayPrefix(apiKey),
        kind: input.kind,
        allowedChains,
        serviceName: input.serviceName,
      });
      return { apiKey, record };
    },

    listApiKeys: (userId: string) => listApiKeys(db, userId),

    async revokeApiKey(userId: string, keyId: string): Promise<ApiKeyRecord> {
      const record = await revokeApiKey(db, userId, keyId);
      if (!record) throw new AccountError('not_found', 'No such API key');
      return record;
    },

    /**
     * Raw key + resource + chain → a short-lived session bound to that resource. The chain is
     * the requested one when the key allows it, else the key's first chain (the MCP server then
     * answers CHAIN_MODE_MISMATCH). Live opt-in is checked on every exchange, so turning it off
     * ends live exchanges from the next call.
     */
    async exchangeApiKey(rawKey: string, resource: string, requestedChain: string | null): Promise<ExchangedSession> {
      const scopes = resourceScopes.get(resource);
      if (!scopes) throw new AccountError('invalid_target', 'The resource is not an MCP server of this deployment');
      const key = await findApiKeyByHash(db, hashApiKey(rawKey));
      if (!key) throw new AccountError('invalid_api_key', 'the API key is unknown');
      if (key.revokedAt) throw new AccountError('invalid_api_key', 'the API key has been revoked');
      const chain = requestedChain === null ? null : key.allowedChains.includes(requestedChain) ? requestedChain : key.allowedChains[0]!;
      if (chain === LIVE_CHAIN_ID && key.kind === 'connector' && !key.liveConnectorsEnabled) throw liveOptInRequired();
      const scope = scopes.join(' ');
      const { token, exp } = await minter.mint(
        { sub: key.userId, aud: resource, session_kind: key.kind, token_use: 'exchange', chain_id: chain, key_id: key.id, scope },
        config.connectorSessionTtlSeconds,
      );
      return {
        session_token: token,
        token_type: 'Bearer',
        expires_in: config.connectorSessionTtlSeconds,
        session: { sub: key.userId, session_kind: key.kind, chain_id: chain, aud: resource, scope, key_id: key.id, exp },
      };
    },

    /** Resolves a raw key for auth's own REST routes (self-scoped reads). */
    async resolveApiKey(rawKey: string) {
      const key = await findApiKeyByHash(db, hashApiKey(rawKey));
      if (!key || key.revokedAt) throw new AccountError('unauthorized', key ? 'the API key has been revoked' : 'the API key is unknown');
      return key;
    },

    async getLiveConnectors(userId: string) {
      const user = await findUserById(db, userId);
      if (!user) throw new AccountError('not_found', 'No such user');
      return {
        enabled: user.liveConnectorsEnabled,
        verification_level: user.verificationLevel,
        required_verification_level: LIVE_VERIFICATION_FLOOR,
      };
    },

    /** Enabling needs the verification floor; disabling never does. */
    async setLiveConnectors(userId: string, enabled: boolean) {
      const user = await findUserById(db, userId);
      if (!user) throw new AccountError('not_found', 'No such user');
      if (enabled && user.verificationLevel !== LIVE_VERIFICATION_FLOOR) {
        throw new AccountError('live_verification_required', `Live money needs verification level "${LIVE_VERIFICATION_FLOOR}"; this account is "${user.verificationLevel}"`);
      }
      await setLiveConnectorsEnabled(db, userId, enabled);
      return { enabled, verification_level: user.verificationLevel, required_verification_level: LIVE_VERIFICATION_FLOOR };
    },

    /**
     * An on-behalf-of token for one callee. `subject_kind` records what the person held when it
     * was minted: a token derived from a connector can never pass a check that needs `personal`
     * (e.g. confirming an intent), which is how nothing an agent holds can move money.
     */
    async mintOboToken(input: { userId: string; audience: string; subjectKind: SessionKind; chainId: string | null; actor: string }) {
      if (!resourceScopes.has(input.audience)) throw new AccountError('invalid_target', 'The audience is not an MCP server of this deployment');
      const { token, exp } = await minter.mint(
        {
          sub: input.userId,
          aud: input.audience,
          session_kind: 'service',
          token_use: 'obo',
          subject_kind: input.subjectKind,
          chain_id: input.chainId,
          act: { sub: input.actor },
        },
        300,
      );
      return { access_token: token, token_type: 'Bearer' as const, expires_in: 300, exp };
    },

    createWebSession: (userId: string) => createWebSession(db, userId, config.webSessionTtlSeconds),
    findWebSession: (id: string) => findWebSession(db, id),
    deleteWebSession: (id: string) => deleteWebSession(db, id),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
