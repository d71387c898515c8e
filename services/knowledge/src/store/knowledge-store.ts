import type { DbHandle } from '../../../../shared/db/client.ts';
import { createDealsStore } from './deals-store.ts';
import { createDocumentsStore } from './documents-store.ts';
import { createGraphStore } from './graph-store.ts';
import { createMatchStore } from './match-store.ts';
import { createRoomsStore } from './rooms-store.ts';
import { createSearchStore } from './search-store.ts';
import { createSetsStore } from './sets-store.ts';

/** Every query the knowledge service runs, grouped by concept; the only way tools reach the DB. */
export function createKnowledgeStore(handle: DbHandle) {
  return {
    rooms: createRoomsStore(handle),
    documents: createDocumentsStore(handle),
    match: createMatchStore(handle),
    search: createSearchStore(handle),
    graph: createGraphStore(handle),
    sets: createSetsStore(handle),
    deals: createDealsStore(handle),
  };
}

export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;
