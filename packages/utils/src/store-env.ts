import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** CAIPE's default: a memory unused for 7 days is forgotten. */
export const DEFAULT_STORE_TTL_MINUTES = 10_080;

/**
 * The long-term store's settings (CAIPE's names). The URI falls back to the checkpoints' (one
 * MongoDB for both, as in CAIPE); `none` turns long-term memory off.
 */
const StoreEnv = z.object({
  LANGGRAPH_STORE_TYPE: z.enum(["mongodb", "memory", "none"]).optional(),
  LANGGRAPH_STORE_MONGODB_URI: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_URI: z.string().trim().min(1).optional(),
  MONGODB_URI: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: z.string().trim().min(1).optional(),
  // CAIPE's name for the database, read after Switchboard's.
  MONGODB_DATABASE: z.string().trim().min(1).optional(),
  LANGGRAPH_STORE_TTL_MINUTES: z.coerce.number().nonnegative().optional(),
  // The name, in days: read only when CAIPE's LANGGRAPH_STORE_TTL_MINUTES is unset.
  MEMORY_TTL_DAYS: z.coerce.number().nonnegative().optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
});

type UriVariable = "LANGGRAPH_STORE_MONGODB_URI" | "LANGGRAPH_CHECKPOINT_MONGODB_URI" | "MONGODB_URI";

export type StoreSettings =
  | { type: "none" }
  | { type: "memory"; reason: "configured" | "no-uri"; ttlMinutes: number }
  | {
      type: "mongodb";
      uri: string;
      /** The variable the URI came from, named in error messages. */
      uriVariable: UriVariable;
      dbName?: string;
      /** 0: kept until deleted. */
      ttlMinutes: number;
      timeoutMs: number;
    };

export function readStoreSettings(env: NodeJS.ProcessEnv = process.env): StoreSettings {
  const e = parseEnv(StoreEnv, env, { code: "store.config", what: "long-term store settings" });
  if (e.LANGGRAPH_STORE_TYPE === "none") return { type: "none" };
  const uriVariable: UriVariable = e.LANGGRAPH_STORE_MONGODB_URI
    ? "LANGGRAPH_STORE_MONGODB_URI"
    : e.LANGGRAPH_CHECKPOINT_MONGODB_URI
      ? "LANGGRAPH_CHECKPOINT_MONGODB_URI"
      : "MONGODB_URI";
  const uri = e.LANGGRAPH_STORE_MONGODB_URI ?? e.LANGGRAPH_CHECKPOINT_MONGODB_URI ?? e.MONGODB_URI;
  const ttlMinutes =
    e.LANGGRAPH_STORE_TTL_MINUTES ??
    (e.MEMORY_TTL_DAYS !== undefined ? e.MEMORY_TTL_DAYS * 1_440 : DEFAULT_STORE_TTL_MINUTES);
  const type = e.LANGGRAPH_STORE_TYPE ?? (uri ? "mongodb" : "memory");
  if (type === "memory") {
    return { type, reason: e.LANGGRAPH_STORE_TYPE ? "configured" : "no-uri", ttlMinutes };
  }
  if (!uri) {
    throw new SwitchboardError(
      "store.config",
      "user",
      "LANGGRAPH_STORE_TYPE=mongodb needs a MongoDB URI: set LANGGRAPH_STORE_MONGODB_URI (or MONGODB_URI), " +
        "or set LANGGRAPH_STORE_TYPE=memory (kept in memory) or none (no long-term memory).",
    );
  }
  return {
    type,
    uri,
    uriVariable,
    dbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME ?? e.MONGODB_DATABASE,
    ttlMinutes,
    timeoutMs: e.LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS,
  };
}
