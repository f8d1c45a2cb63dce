// What one saver's parts share: its collections, serializer, conversation cache and identity maps.
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { Collection, Db } from "mongodb";
import type { CheckpointDoc, MessageDoc, SaverCollections, WriteDoc } from "./documents.js";
import { StoredIdentities } from "./identity.js";
import { ThreadCache } from "./threads.js";

export interface SaverStore {
  checkpoints: Collection<CheckpointDoc>;
  writes: Collection<WriteDoc>;
  messages: Collection<MessageDoc>;
  serde: SerializerProtocol;
  threads: ThreadCache;
  /** This saver's own: another saver's entries would name documents it does not have. */
  identities: StoredIdentities;
  /** A conversation's time to live after its last activity; unset keeps it forever. */
  ttlMs?: number;
}

export interface StoreOptions {
  db: Db;
  collections: SaverCollections;
  serde: SerializerProtocol;
  ttlSeconds?: number;
  cacheBytes?: number;
}

/** A saver's store, with a cache and identity maps of its own. */
export function openStore({ db, collections, serde, ttlSeconds, cacheBytes }: StoreOptions): SaverStore {
  const store: SaverStore = {
    checkpoints: db.collection(collections.checkpoints),
    writes: db.collection(collections.writes),
    messages: db.collection(collections.messages),
    serde,
    threads: new ThreadCache(cacheBytes ?? 64 * 1024 * 1024),
    identities: new StoredIdentities(),
  };
  if (ttlSeconds) store.ttlMs = ttlSeconds * 1000;
  return store;
}

/** The three collections, as far as what every document has: its conversation. */
export function perThread(store: SaverStore): Array<Collection<{ thread_id: string }>> {
  return [store.checkpoints, store.writes, store.messages] as unknown as Array<
    Collection<{ thread_id: string }>
  >;
}

/** Deletes a conversation's documents, then forgets what this process knew of it. */
export async function deleteConversation(store: SaverStore, threadId: string): Promise<void> {
  await Promise.all(perThread(store).map((collection) => collection.deleteMany({ thread_id: threadId })));
  // Dropped after the deletes: a read racing them cannot leave the cache holding the old tree.
  store.threads.delete(threadId);
}
