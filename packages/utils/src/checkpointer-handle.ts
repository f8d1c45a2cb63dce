import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Db } from "mongodb";
import type { CheckpointMetrics } from "./checkpoint-metrics.js";

/** What the process persists to, for logs, /ready and tests. */
export type CheckpointerInfo =
  | { agent: string; backend: "memory" }
  | {
      agent: string;
      backend: "mongodb";
      /** The URI with its password redacted. */
      uri: string;
      dbName: string;
      collection: string;
      writesCollection: string;
      messagesCollection: string;
      ttlSeconds?: number;
    }
  | {
      agent: string;
      backend: "postgres";
      /** The DSN with its password redacted. */
      dsn: string;
      /** The agent's schema, holding LangGraph's checkpoint tables. */
      schema: string;
      ttlSeconds?: number;
    };

/** One built checkpointer: its saver, where it persists, and its MongoDB client's lifetime. */
export interface CheckpointerHandle {
  readonly saver: BaseCheckpointSaver;
  readonly info: CheckpointerInfo;
  /** The database checkpoints live in (A2A tasks and locks go beside them); undefined for memory. */
  readonly db?: Db;
  /**
   * This checkpointer's own read, write and error metrics, labelled by its agent (registered
   * nowhere: whoever serves /metrics registers them), so agents in one process report apart.
   */
  readonly metrics: CheckpointMetrics;
  /** Whether the store answers now; always true for the memory backend. */
  ping(): Promise<boolean>;
  /** Closes its MongoDB client (nothing to close for memory). */
  close(): Promise<void>;
}
