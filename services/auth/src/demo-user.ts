import type { Config } from '../../../shared/config.ts';
import type { Db } from '../../../shared/db/client.ts';
import { hashPassword } from './domain/password-hash.ts';
import { countUsers, findUserByEmail, insertUser } from './store/user-store.ts';

/**
 * A documented demo account so the two-command quick start can be signed in to. Created only on
 * an empty embedded database (SEED_DEMO_USER defaults to on without DATABASE_URL, off with it);
 * its password is published in the README, so it is not a secret — never enable it on a
 * deployment that holds real accounts.
 */
export const DEMO_USER = { email: 'demo@gatehouse.local', password: 'gatehouse-demo' } as const;

export async function seedDemoUser(db: Db, config: Config): Promise<boolean> {
  if (!config.seedDemoUser) return false;
  if ((await countUsers(db)) > 0) return Boolean(await findUserByEmail(db, DEMO_USER.email));
  await insertUser(db, { email: DEMO_USER.email, passwordHash: await hashPassword(DEMO_USER.password), verificationLevel: 'none' });
  return true;
}
