import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { Logger } from "@switchboard/common";
import { collectionsFor } from "@switchboard/contract";
import type { CheckpointerHandle } from "@switchboard/utils";
import type { Db } from "mongodb";
import type { AuditLog } from "../audit/audit-log.js";
import type { AuditKey } from "../audit/key.js";
import { MemoryAuditLog } from "../audit/memory-audit-log.js";
import { MongoAuditLog } from "../audit/mongo-audit-log.js";
import { type LinkableVendor, LinkedTokens } from "../credentials/linked-tokens.js";
import { MemoryPushConfigStore } from "../push/memory-store.js";
import { type AgentPushConfigStore, MongoPushConfigStore } from "../push/store.js";
import { MemoryTaskStore } from "../tasks/memory-task-store.js";
import { MongoTaskStore } from "../tasks/mongo-task-store.js";
import type { AgentTaskStore } from "../tasks/task-parts.js";
import {
  type LockSettings,
  MemoryThreadLocks,
  MongoThreadLocks,
  type ThreadLocks,
} from "../tasks/thread-lock.js";

/**
 * One agent's stores, all on the same backend as its checkpoints (`<kind>_<agent>` beside
 * `checkpoints_<agent>` in MongoDB, or process memory): what serve.ts hands to the parts that use
 * them. Each store deletes its own part of a conversation and of a user (conversations/deletion.ts
 * asks them). Long-term memory is not here: its backend is its own setting (memory/setup.ts).
 */
export interface AgentStores {
  agent: string;
  backend: "mongodb" | "memory";
  checkpointer: BaseCheckpointSaver;
  tasks: AgentTaskStore;
  pushConfigs: AgentPushConfigStore;
  locks: ThreadLocks;
  /** The audit trail as stored (anchoring and log records are layered on in serve.ts). */
  auditLog: AuditLog;
  /** Users' own vendor tokens, when the agent takes them and linking is on. */
  linkedTokens?: LinkedTokens;
  /**
   * With MongoDB: how a replica that does not run a task follows it for a subscriber (other
   * replicas share the stores); absent in memory, where only this process runs the agent.
   */
  follower?: { tasks: MongoTaskStore; locks: MongoThreadLocks };
  /** Whether the stores answer now (/ready); memory always does. */
  ready(): Promise<boolean>;
}

export interface AgentStoreOptions {
  checkpointer: BaseCheckpointSaver;
  locks: LockSettings;
  logger: Logger;
  audit: { retentionDays?: number; key?: AuditKey };
  /** Given when the agent's vendor takes users' own tokens and CREDENTIALS_ENCRYPTION_KEY is set. */
  linking?: { vendor: LinkableVendor; key: Buffer };
}

/** The agent's stores in MongoDB, beside its checkpoints (indexes made here, at start-up). */
export async function openAgentStores(
  db: Db,
  agent: string,
  options: AgentStoreOptions,
): Promise<AgentStores> {
  const tasks = await MongoTaskStore.create(db, agent);
  const locks = await MongoThreadLocks.create(db, agent, options.locks, options.logger);
  const { retentionDays, key } = options.audit;
  return {
    agent,
    backend: "mongodb",
    checkpointer: options.checkpointer,
    tasks,
    pushConfigs: await MongoPushConfigStore.create(db, agent),
    locks,
    auditLog: await MongoAuditLog.create(db, collectionsFor(agent).audit, {
      ...(retentionDays ? { retentionDays } : {}),
      ...(key ? { key } : {}),
    }),
    linkedTokens: options.linking
      ? await LinkedTokens.open(db, agent, options.linking.vendor, options.linking.key)
      : undefined,
    follower: { tasks, locks },
    ready: async () => {
      try {
        await db.command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The same stores in process memory (LANGGRAPH_CHECKPOINT_TYPE=memory): gone on restart. */
export async function memoryAgentStores(agent: string, options: AgentStoreOptions): Promise<AgentStores> {
  return {
    agent,
    backend: "memory",
    checkpointer: options.checkpointer,
    tasks: new MemoryTaskStore(),
    pushConfigs: new MemoryPushConfigStore(),
    locks: new MemoryThreadLocks(options.locks),
    auditLog: new MemoryAuditLog(options.audit.key),
    linkedTokens: options.linking
      ? await LinkedTokens.open(undefined, agent, options.linking.vendor, options.linking.key)
      : undefined,
    ready: async () => true,
  };
}

/**
 * The one place the backend is chosen: the agent's stores go where its checkpoints went (its
 * checkpointer's database, or memory).
 */
export function agentStores(
  checkpoints: Pick<CheckpointerHandle, "db">,
  agent: string,
  options: AgentStoreOptions,
): Promise<AgentStores> {
  return checkpoints.db ? openAgentStores(checkpoints.db, agent, options) : memoryAgentStores(agent, options);
}
