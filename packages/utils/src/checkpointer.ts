import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Db } from "mongodb";
import {
  buildCheckpointer,
  type CheckpointerHandle,
  type CheckpointerInfo,
  type CheckpointerOptions,
  resolveCheckpointer,
} from "./checkpointer-build.js";
import { CheckpointerRegistry } from "./checkpointer-registry.js";

export {
  type CheckpointerHandle,
  type CheckpointerInfo,
  type CheckpointerOptions,
  DEFAULT_DB_NAME,
} from "./checkpointer-build.js";

/**
 * The process's checkpointers. One per process by contract: getCheckpointer() is how every agent
 * gets its saver, and calls with the same settings must share one saver and MongoDB client.
 */
const processCheckpointers = new CheckpointerRegistry();

/**
 * The process's checkpoint saver for these options: a MongoCheckpointSaver on
 * `checkpoints_<agent>` / `checkpoint_writes_<agent>` (and `checkpoint_messages_<agent>`) when a
 * MongoDB URI is configured, else the in-memory saver with a warning. Never falls back silently:
 * an unreachable MongoDB is an error naming host and setting. Calls with the same settings share
 * one saver and client; other settings (another agent, another database) get their own. A call
 * with no env and no agent name gets the first one built, or builds it from process.env.
 */
export async function getCheckpointer(options: CheckpointerOptions = {}): Promise<BaseCheckpointSaver> {
  return (await processCheckpointers.get(options)).saver;
}

/** Where the process persists (building the checkpointer if needed). */
export async function getCheckpointerInfo(options: CheckpointerOptions = {}): Promise<CheckpointerInfo> {
  return (await processCheckpointers.get(options)).info;
}

/** The database checkpoints live in (A2A tasks and locks go beside them); undefined for memory. */
export async function getCheckpointerDb(options: CheckpointerOptions = {}): Promise<Db | undefined> {
  return (await processCheckpointers.get(options)).db;
}

/**
 * Whether the store answers now; always true for the memory backend, false when none was built.
 * Used by /ready. Asks the first checkpointer built (the process's own), never builds one.
 */
export async function pingCheckpointer(): Promise<boolean> {
  const handle = await processCheckpointers.current();
  return handle ? handle.ping() : false;
}

/**
 * Closes MongoDB clients and forgets their savers; the next getCheckpointer() builds anew from
 * the then-current settings. With no options, every checkpointer of the process (call it on
 * shutdown, and between tests as the reset); with options, only the one they name.
 */
export async function closeCheckpointer(options?: CheckpointerOptions): Promise<void> {
  if (options === undefined) await processCheckpointers.closeAll();
  else await processCheckpointers.close(options);
}

/**
 * A checkpointer of the caller's own, shared with no other call: the caller closes it. For code
 * that runs several agents in one process and wants each one's lifetime in its own hands.
 */
export async function openCheckpointer(options: CheckpointerOptions = {}): Promise<CheckpointerHandle> {
  return buildCheckpointer(resolveCheckpointer(options));
}
