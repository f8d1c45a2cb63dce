import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** The checkpoint settings from the environment (names shared with CAIPE's env files). */
const CheckpointEnv = z.object({
  LANGGRAPH_CHECKPOINT_TYPE: z.enum(["mongodb", "memory", "postgres", "redis"]).optional(),
  LANGGRAPH_CHECKPOINT_POSTGRES_DSN: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_URI: z.string().trim().min(1).optional(),
  MONGODB_URI: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: z.string().trim().min(1).optional(),
  // CAIPE's name for the database, read after Switchboard's.
  MONGODB_DATABASE: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION: z.string().trim().min(1).optional(),
  LANGGRAPH_CHECKPOINT_TTL_MINUTES: z.coerce.number().nonnegative().default(0),
  LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
});

export type CheckpointSettings =
  | { type: "memory"; reason: "configured" | "no-uri" }
  | {
      type: "postgres";
      dsn: string;
      ttlMinutes: number;
      /** Where A2A tasks, the audit trail and the other side collections go; in memory without it. */
      mongoUri?: string;
      mongoDbName?: string;
      timeoutMs: number;
    }
  | {
      type: "mongodb";
      uri: string;
      /** The variable the URI came from, named in error messages. */
      uriVariable: "LANGGRAPH_CHECKPOINT_MONGODB_URI" | "MONGODB_URI";
      dbName?: string;
      collection?: string;
      writesCollection?: string;
      ttlMinutes: number;
      timeoutMs: number;
    };

export function readCheckpointSettings(env: NodeJS.ProcessEnv = process.env): CheckpointSettings {
  // Empty strings in env files mean "unset", as they do for CAIPE's Python settings.
  const e = parseEnv(CheckpointEnv, env, { code: "checkpointer.config", what: "checkpoint settings" });
  const uriVariable = e.LANGGRAPH_CHECKPOINT_MONGODB_URI ? "LANGGRAPH_CHECKPOINT_MONGODB_URI" : "MONGODB_URI";
  const uri = e.LANGGRAPH_CHECKPOINT_MONGODB_URI ?? e.MONGODB_URI;
  const type = e.LANGGRAPH_CHECKPOINT_TYPE ?? (uri ? "mongodb" : "memory");

  if (type === "memory") return { type, reason: e.LANGGRAPH_CHECKPOINT_TYPE ? "configured" : "no-uri" };
  if (type === "redis") {
    throw new SwitchboardError(
      "checkpointer.config",
      "user",
      "LANGGRAPH_CHECKPOINT_TYPE=redis is not supported: LangGraph's JavaScript Redis saver needs Redis with " +
        "the RediSearch and RedisJSON modules (Redis Stack or Redis 8), which Switchboard does not test against. " +
        "Use LANGGRAPH_CHECKPOINT_TYPE=postgres with LANGGRAPH_CHECKPOINT_POSTGRES_DSN, or mongodb with MONGODB_URI.",
    );
  }
  if (type === "postgres") {
    if (!e.LANGGRAPH_CHECKPOINT_POSTGRES_DSN) {
      throw new SwitchboardError(
        "checkpointer.config",
        "user",
        "LANGGRAPH_CHECKPOINT_TYPE=postgres needs LANGGRAPH_CHECKPOINT_POSTGRES_DSN " +
          "(e.g. postgresql://langgraph:secret@localhost:5432/langgraph).",
      );
    }
    return {
      type,
      dsn: e.LANGGRAPH_CHECKPOINT_POSTGRES_DSN,
      ttlMinutes: e.LANGGRAPH_CHECKPOINT_TTL_MINUTES,
      mongoUri: uri,
      mongoDbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME ?? e.MONGODB_DATABASE,
      timeoutMs: e.LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS,
    };
  }
  if (!uri) {
    throw new SwitchboardError(
      "checkpointer.config",
      "user",
      "LANGGRAPH_CHECKPOINT_TYPE=mongodb needs a MongoDB URI: set LANGGRAPH_CHECKPOINT_MONGODB_URI or MONGODB_URI " +
        "(e.g. mongodb://localhost:27017), or set LANGGRAPH_CHECKPOINT_TYPE=memory to run without persistence.",
    );
  }
  return {
    type,
    uri,
    uriVariable,
    dbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME ?? e.MONGODB_DATABASE,
    collection: e.LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION,
    writesCollection: e.LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION,
    ttlMinutes: e.LANGGRAPH_CHECKPOINT_TTL_MINUTES,
    timeoutMs: e.LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS,
  };
}
