import { Task } from "@a2a-js/sdk";
import { ServerCallContext, type User } from "@a2a-js/sdk/server";
import { createLogger, type Logger } from "@switchboard/common";
import { type CheckpointerHandle, openCheckpointer } from "@switchboard/utils";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll } from "vitest";
import { AuthenticatedCaller } from "../../src/auth/caller.js";
import { type AgentStoreOptions, type AgentStores, agentStores } from "../../src/stores/agent-stores.js";
import type { LockSettings } from "../../src/tasks/thread-lock.js";

// The two backends every store is asserted against (as LangGraph's checkpoint-validation suite runs
// one set of cases per saver): each suite is written once and run for each of these. Both are
// opened the way serve.ts opens them, from the agent's own checkpointer handle (agentStores).

export const silent: Logger = createLogger({ level: "silent" });

export interface StoreBackend {
  name: "memory" | "mongodb";
  /** The agent's stores on this backend (MongoDB: one test database per file, shared by its agents). */
  open(
    agent: string,
    locks?: Partial<LockSettings>,
    extra?: Pick<AgentStoreOptions, "audit" | "linking">,
  ): Promise<AgentStores>;
}

const LOCKS: LockSettings = { policy: "reject", leaseMs: 30_000, waitMs: 2_000 };

/**
 * Both backends, for `describe.each`: each opens agents' stores for the file's tests and closes
 * them (and drops the file's MongoDB database) after all of them.
 */
export function storeBackends(file: string): StoreBackend[] {
  const dbName = uniqueDbName(file);
  const handles: CheckpointerHandle[] = [];
  const envs = {
    memory: { LANGGRAPH_CHECKPOINT_TYPE: "memory" },
    mongodb: {
      LANGGRAPH_CHECKPOINT_TYPE: "mongodb",
      MONGODB_URI: "",
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
    },
  };
  beforeAll(() => {
    envs.mongodb.MONGODB_URI = testMongoUri();
  });
  afterAll(async () => {
    const mongo = handles.find((handle) => handle.db);
    await mongo?.db?.dropDatabase();
    await Promise.all(handles.map((handle) => handle.close()));
  });
  return (["memory", "mongodb"] as const).map((name) => ({
    name,
    async open(agent, locks, extra) {
      const handle = await openCheckpointer({ env: envs[name], agentName: agent, logger: silent });
      handles.push(handle);
      return agentStores(handle, agent, {
        checkpointer: handle.saver,
        locks: { ...LOCKS, ...locks },
        logger: silent,
        audit: {},
        ...extra,
      });
    },
  }));
}

/** A signed-in caller, as a verified bearer token makes one. */
export const caller = (subject: string): User => new AuthenticatedCaller(subject, `token-of-${subject}`);

export const contextOf = (user: User) => new ServerCallContext({ user });

/** A task of a conversation, at a status time (ISO), with a message and an answer. */
export function taskAt(
  id: string,
  contextId: string,
  timestamp: string,
  state = "TASK_STATE_COMPLETED",
): Task {
  return Task.fromJSON({
    id,
    contextId,
    status: { state, timestamp },
    history: [{ messageId: `m-${id}`, role: "ROLE_USER", parts: [{ text: `question ${id}` }] }],
    artifacts: [{ artifactId: "answer", parts: [{ text: `answer ${id}` }] }],
  });
}
