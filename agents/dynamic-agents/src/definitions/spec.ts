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
  close(): Promise<void>;
}

/** A configured agent as CAIPE keeps it in `dynamic_agents` (snake_case, `_id` the agent's id). */
export interface StoredAgent {
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
  owner_id?: string;
  is_system?: boolean;
  config_driven: boolean;
  created_at: Date;
  updated_at: Date;
  /** CAIPE's fields Switchboard keeps but does not use (skills, ui, features, …), kept as written. */
  [other: string]: unknown;
}

/** The store of definitions (CAIPE's collections `dynamic_agents`, `mcp_servers`, `llm_models`). */
export interface DefinitionStore {
  readonly kind: "mongodb" | "memory";
  /** Bumped on every change by any replica: polled to see changes made elsewhere. */
  revision(): Promise<number>;
  listAgents(): Promise<StoredAgent[]>;
  getAgent(id: string): Promise<StoredAgent | undefined>;
  /** False when an agent with that id exists already. */
  createAgent(agent: Omit<StoredAgent, "created_at" | "updated_at">): Promise<boolean>;
  /** The agent after the change, or undefined when there is none (or it is config-driven). */
  updateAgent(id: string, fields: Partial<StoredAgent>): Promise<StoredAgent | undefined>;
  /** False when there was no such API-made agent. */
  deleteAgent(id: string): Promise<boolean>;
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
  store: DefinitionStore;
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
