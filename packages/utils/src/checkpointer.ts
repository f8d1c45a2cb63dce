import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Db } from "mongodb";
import { buildCheckpointer, type CheckpointerOptions, resolveCheckpointer } from "./checkpointer-build.js";
import type { CheckpointerHandle, CheckpointerInfo } from "./checkpointer-handle.js";
import { CheckpointerRegistry } from "./checkpointer-registry.js";

export { type CheckpointerOptions, DEFAULT_DB_NAME } from "./checkpointer-build.js";
export type { CheckpointerHandle, CheckpointerInfo } from "./checkpointer-handle.js";

/**
 * The savers getCheckpointer() shares: calls with the same settings share one saver and MongoDB
 * client. A served agent does not use them: it opens a checkpointer of its own (openCheckpointer)
 * and holds it; this is for code that asks for a saver by the contract.
 */
const sharedCheckpointers = new CheckpointerRegistry();

/**
 * The checkpoint saver for these options (the contract's): a MongoCheckpointSaver on
 * `checkpoints_<agent>` / `checkpoint_writes_<agent>` (and `checkpoint_messages_<agent>`) when a
 * MongoDB URI is configured, else the in-memory saver with a warning. Never falls back silently:
 * an unreachable MongoDB is an error naming host and setting. Calls with the same settings share
 * one saver and client; other settings (another agent, another database) get their own. Without
 * options: process.env and the detected agent name.
 */
export async function getCheckpointer(options: CheckpointerOptions = {}): Promise<BaseCheckpointSaver> {
  return (await sharedCheckpointers.get(options)).saver;
}

/** Where the process persists (building the checkpointer if needed). */
export async function getCheckpointerInfo(options: CheckpointerOptions = {}): Promise<CheckpointerInfo> {
  return (await sharedCheckpointers.get(options)).info;
}

/** The database checkpoints live in (A2A tasks and locks go beside them); undefined for memory. */
export async function getCheckpointerDb(options: CheckpointerOptions = {}): Promise<Db | undefined> {
  return (await sharedCheckpointers.get(options)).db;
}

/**
 * Closes MongoDB clients and forgets their savers; the next getCheckpointer() builds anew from
 * the then-current settings. With no options, every checkpointer of the process (call it on
 * shutdown, and between tests as the reset); with options, only the one they name.
 */
export async function closeCheckpointer(options?: CheckpointerOptions): Promise<void> {
  if (options === undefined) await sharedCheckpointers.closeAll();
  else await sharedCheckpointers.close(options);
}

/**
 * A checkpointer of the caller's own, shared with no other call: its saver, database, info, ping,
 * metrics (labelled by its agent) and close. The caller holds it and closes it: how the runtime
 * serves each agent, so agents in one process never share one by accident. Given `client`, it
 * uses that MongoDB client (a host's agents share one) and leaves it open on close.
 */
export async function openCheckpointer(options: CheckpointerOptions = {}): Promise<CheckpointerHandle> {
  return buildCheckpointer(resolveCheckpointer(options), options.client);
}
