import { eq } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { oauthClients } from './schema.ts';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A dynamically registered client (RFC 7591). The secret exists only as a hash. */
export interface RegisteredClient {
  readonly clientId: string;
  readonly clientSecretHash: string | null;
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly string[];
  readonly responseTypes: readonly string[];
  readonly clientName: string | null;
  readonly clientUri: string | null;
  readonly logoUri: string | null;
  readonly scope: string | null;
  readonly softwareId: string | null;
  readonly softwareVersion: string | null;
  readonly createdAt: Date;
}

function toClient(row: typeof oauthClients.$inferSelect): RegisteredClient {
  return { ...row, tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod };
}

export async function insertOAuthClient(db: Db, client: Omit<RegisteredClient, 'createdAt'>): Promise<RegisteredClient> {
  const [row] = await db
    .insert(oauthClients)
    .values({ ...client, redirectUris: [...client.redirectUris], grantTypes: [...client.grantTypes], responseTypes: [...client.responseTypes] })
    .returning();
  return toClient(row!);
}

export async function findOAuthClient(db: Db, clientId: string): Promise<RegisteredClient | undefined> {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  return row && toClient(row);
}
