import type { Principal } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import type { McpServerInput } from "@switchboard/contract";
import type { Request, Router } from "express";
import type { Db } from "mongodb";

// What the definitions part hands the host: configured agents, validated and expanded, from CAIPE's
// app-config.yaml and from the API (kept in MongoDB), merged into one source that says when it changes.

/** One configured agent, validated, `${VAR:-default}` expanded. */
export interface AgentSpec {
  /** The agent's name everywhere (`/agents/<id>/`, `checkpoints_<id>`, policies): the contract's name rule. */
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
  /** CAIPE provider names: aws-bedrock, openai, azure-openai, anthropic-claude, google-gemini, ollama… */
  model: { id: string; provider: string };
  /** Tool-source id → all of its tools, or those tool names (`false` dropped; `[]` means all, as CAIPE). */
  allowedTools: Record<string, true | string[]>;
  /** Namespace (tool-source id, or `builtin`) → tool name (or `*`) → asks first. Undefined: not set. */
  interruptOn?: Record<string, Record<string, true | { allowed_decisions: string[] }>>;
  /** Another configured agent (`agentId`), or any A2A agent (`url`, a Switchboard extension). */
  subagents: Array<{ name: string; description: string; agentId?: string; url?: string }>;
  visibility: "team" | "global";
  ownerTeam?: string;
  sharedWithTeams: string[];
  enabled: boolean;
  source: "config" | "api";
  /** A hash of everything the host builds the agent from: equal revisions need no rebuild. */
  revision: string;
}

/** Where an agent's tools come from: an MCP server, or (a Switchboard extension) an OpenAPI description. */
export type ToolSourceSpec =
  | { kind: "mcp"; id: string; name: string; description?: string; config: McpServerInput }
  | {
      kind: "openapi";
      id: string;
      name: string;
      description?: string;
      /** A path or URL. */
      document: string;
      baseUrl?: string;
      auth?: Record<string, string>;
      /** Values of the first server's variables (`server_variables`). */
      serverVariables?: Record<string, string>;
      /** OAuth2 token endpoints by scheme, instead of the description's (`token_urls`). */
      tokenUrls?: Record<string, string>;
      /** Only the operations with one of these tags (`tags`). */
      tags?: string[];
      /** Only these operations, by tool name or operationId (`operations`). */
      operations?: string[];
      /** Past this many operations the model gets a search and a call tool instead (`max_tools`, default 40). */
      maxTools?: number;
    };

export interface ModelSpec {
  modelId: string;
  name: string;
  provider: string;
  description?: string;
}

/** Something wrong in a definition, naming where (`agents[2].allowed_tools.github`) and the fix. */
export interface DefinitionProblem {
  agent?: string;
  field: string;
  message: string;
}

export interface Definitions {
  agents: AgentSpec[];
  toolSources: ToolSourceSpec[];
  models: ModelSpec[];
  problems: DefinitionProblem[];
  /** What Switchboard does not take from the file, one line each, for the host to log once at start-up. */
  unused: string[];
}

/** The agents the file and the store define together, and word when that changes. */
export interface DefinitionSource {
  current(): Definitions;
  onChange(listener: (next: Definitions) => void): () => void;
  /** Where API-made definitions are kept (MongoDB, else memory): what `definitionsApi` writes to. */
  store: DefinitionStore;
  /** Reads the store now (after a write through the API), telling listeners of any change before it resolves. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** A configured agent as CAIPE keeps it in `dynamic_agents` (snake_case, `_id` the agent's id), times aside. */
export interface AgentDocument {
  _id: string;
  name: string;
  description?: string;
  system_prompt: string;
  allowed_tools: Record<string, string[] | boolean>;
  model: { id: string; provider: string };
  visibility: "team" | "global";
  owner_team_slug?: string;
  shared_with_teams?: string[];
  subagents: Array<{ agent_id?: string; name: string; description: string; url?: string }>;
  interrupt_on?: Record<string, Record<string, boolean | { allowed_decisions: string[] }>>;
  enabled: boolean;
  owner_id: string;
  is_system: boolean;
  config_driven: boolean;
  /** CAIPE's fields Switchboard keeps but does not act on (skills, ui, features, …), as written. */
  [other: string]: unknown;
}

/** An agent's document as stored, with CAIPE's ISO times. */
export interface StoredAgent extends AgentDocument {
  created_at: string;
  updated_at: string;
}

/** An MCP server as CAIPE keeps it in `mcp_servers` (`headers` and `forward_user_token`: Switchboard's). */
export interface McpServerDocument {
  _id: string;
  name: string;
  description?: string;
  transport: "http" | "sse" | "stdio";
  endpoint?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  headers?: Record<string, string>;
  enabled: boolean;
  config_driven: boolean;
  [other: string]: unknown;
}

export interface StoredMcpServer extends McpServerDocument {
  created_at: string;
  updated_at: string;
}

/** A model as CAIPE keeps it in `llm_models` (`_id` is the model id). */
export interface ModelDocument {
  _id: string;
  model_id: string;
  name: string;
  provider: string;
  description: string;
  config_driven: boolean;
  [other: string]: unknown;
}

export interface StoredModel extends ModelDocument {
  updated_at: string;
}

/** The file's entries as the store keeps them (config-driven), for `DefinitionStore.syncConfig`. */
export interface ConfigDocuments {
  agents: Array<AgentDocument>;
  /** Present in the file but invalid: their documents (last good) are kept, not removed as stale. */
  keepAgents: string[];
  mcpServers: Array<McpServerDocument>;
  models: Array<ModelDocument>;
}

/** The store of definitions: CAIPE's collections `dynamic_agents`, `mcp_servers`, `llm_models`. */
export interface DefinitionStore {
  readonly kind: "mongodb" | "memory";
  /** Changes whenever any replica (or CAIPE's own UI) changes an agent: polled to see changes made elsewhere. */
  revision(): Promise<string>;
  listAgents(): Promise<StoredAgent[]>;
  getAgent(id: string): Promise<StoredAgent | undefined>;
  /** False when an agent with that id exists already. */
  createAgent(agent: AgentDocument): Promise<boolean>;
  /** Replaces an API-made agent (created_at kept); false when there is none of that id. */
  replaceAgent(agent: AgentDocument): Promise<boolean>;
  /** False when there was no such API-made agent. */
  deleteAgent(id: string): Promise<boolean>;
  listMcpServers(): Promise<StoredMcpServer[]>;
  listModels(): Promise<StoredModel[]>;
  /**
   * The file's entries upserted as config-driven documents (only those that changed), config-driven
   * ones no longer in the file removed, API-made ones never touched. Returns the ids the file could
   * not take because an API-made entry holds them.
   */
  syncConfig(documents: ConfigDocuments): Promise<{ conflicts: string[] }>;
  close(): Promise<void>;
}

export interface OpenDefinitionsOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** MongoDB (CAIPE's collections); without it, API-made agents are kept in memory. */
  db?: Db;
}

/** Who may do what to an agent, decided by the host's policies. */
export type DecideDefinitions = (
  caller: Principal | undefined,
  action: "configure" | "reach",
  agentId: string,
) => Promise<boolean>;

export interface DefinitionsApiOptions {
  source: DefinitionSource;
  /** Default: `source.store`. */
  store?: DefinitionStore;
  decide: DecideDefinitions;
  /**
   * Who is calling, from the token the host's bearer check verified before the router runs
   * (undefined: anonymous, AUTH_MODE=none).
   */
  caller: (req: Request) => Promise<Principal | undefined>;
  logger: Logger;
}

export type OpenDefinitions = (options: OpenDefinitionsOptions) => Promise<DefinitionSource>;
export type DefinitionsApi = (options: DefinitionsApiOptions) => Router;
