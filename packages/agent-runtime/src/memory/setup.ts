import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Logger } from "@switchboard/common";
import { openStore, readStoreSettings, type StoreHandle, type StoreInfo } from "@switchboard/utils";
import type { MongoClient } from "mongodb";
import type { Access } from "../authz/access.js";
import type { ConversationStores } from "../conversations/deletion.js";
import { createEmbeddings } from "./embeddings.js";
import { extractionModel } from "./extraction-model.js";
import { FactExtractor } from "./fact-extraction.js";
import { MemoryBook } from "./memory-book.js";
import type { PostgresStoreHandle, PostgresStoreInfo } from "./postgres-store.js";
import { rememberTool } from "./remember-tool.js";
import { memoryTokens, readMemorySettings, readStoreChoice } from "./settings.js";
import { type TurnMemories, turnMemories } from "./turn-memories.js";
import { UserData } from "./user-data.js";

export interface AgentMemory {
  /** Undefined when LANGGRAPH_STORE_TYPE=none or the agent has no model (offline mode). */
  memories?: TurnMemories;
  userData: UserData;
  store: StoreInfo | PostgresStoreInfo;
  /** Waits for queued fact extractions (tests), without closing anything. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An agent's long-term memory, from its settings: LANGGRAPH_STORE_TYPE=postgres keeps it in
 * LangGraph's PostgresStore (postgres-store.ts); otherwise @switchboard/utils' openStore chooses
 * MongoDB, memory or none (CAIPE's redis is named and ignored). See settings.ts.
 */
export async function agentMemory(options: {
  agent: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  model: BaseChatModel | undefined;
  maxContextTokens: number | undefined;
  conversations: ConversationStores;
  /** The agent's policies and linked tokens: forget me unlinks the caller's (UserData). */
  access?: Access;
  /** The MongoDB client a host shares between its agents (see openStore's `client`). */
  mongo?: MongoClient;
  /** Whether the agent's `<AGENT>_…` LLM settings apply (not to an agent a host mounts). */
  agentVariables?: boolean;
}): Promise<AgentMemory> {
  const { agent, env, logger, model } = options;
  const settings = readMemorySettings(env);
  const handle = await openMemoryStore(agent, env, logger, options.mongo);
  if (!handle.store) {
    return {
      userData: new UserData(agent, undefined, options.conversations, options.access),
      store: handle.info,
      idle: async () => undefined,
      close: () => handle.close(),
    };
  }
  const embeddings = settings.embeddings ? await createEmbeddings(settings.embeddings, env) : undefined;
  const book = new MemoryBook({
    store: handle.store,
    revision: handle.revision
      ? (namespace) => handle.revision?.(namespace) ?? Promise.resolve("")
      : undefined,
    maxPerUser: settings.maxPerUser,
    embeddings,
    logger,
  });
  const extractor =
    model && settings.extraction.enabled
      ? new FactExtractor(
          book,
          await extractionModel(
            env,
            options.agentVariables === false ? undefined : agent,
            model,
            settings.extraction.model,
          ),
          logger,
        )
      : undefined;
  const budgetTokens = memoryTokens(settings, options.maxContextTokens);
  return {
    memories: model ? turnMemories(book, [rememberTool(book)], budgetTokens, extractor, logger) : undefined,
    userData: new UserData(agent, book, options.conversations, options.access),
    store: handle.info,
    idle: async () => extractor?.idle(),
    close: async () => {
      await extractor?.idle();
      await handle.close();
    },
  };
}

async function openMemoryStore(
  agent: string,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  mongo: MongoClient | undefined,
): Promise<StoreHandle | PostgresStoreHandle> {
  const choice = readStoreChoice(env);
  if (choice.backend === "postgres") {
    // The expiry rule (LANGGRAPH_STORE_TTL_MINUTES, else MEMORY_TTL_DAYS, else 7 days) is read where
    // the MongoDB store reads it; "memory" only spares it looking for a URI.
    const expiry = readStoreSettings({ ...env, LANGGRAPH_STORE_TYPE: "memory" });
    const ttlMinutes = expiry.type === "none" ? 0 : expiry.ttlMinutes;
    const { openPostgresStore } = await import("./postgres-store.js");
    return openPostgresStore({ agent, dsn: choice.dsn, dsnVariable: choice.dsnVariable, ttlMinutes, logger });
  }
  const handle = await openStore({
    env: { ...env, LANGGRAPH_STORE_TYPE: choice.type },
    agentName: agent,
    logger,
    ...(mongo ? { client: mongo } : {}),
  });
  if (choice.ignoredRedis) {
    const used =
      handle.info.backend === "mongodb"
        ? `MongoDB (${handle.info.dbName}.${handle.info.collection})`
        : "the in-memory store (lost on restart)";
    logger.warn(
      `LANGGRAPH_STORE_TYPE=redis is ignored (and LANGGRAPH_STORE_REDIS_URL with it): Switchboard keeps no ` +
        `long-term memory on Redis. Using ${used} instead; set LANGGRAPH_STORE_TYPE=postgres or mongodb to choose.`,
    );
  }
  return handle;
}
