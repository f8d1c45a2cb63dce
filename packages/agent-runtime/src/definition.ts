import type { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { McpServerInput } from "@switchboard/contract";
import type { TurnContext } from "./context/turn-context.js";
import type { LinkableVendor } from "./credentials/linked-tokens.js";
import type { AgentHost } from "./extension.js";
import type { ContextBudget } from "./graph/context-budget.js";
import type { GuardedTools } from "./graph/guarded-tools.js";
import type { TurnMemories } from "./memory/turn-memories.js";
import type { AgentTool } from "./tools/define-tool.js";

/** One skill on the agent card: what the supervisor's model reads to decide where to route. */
export interface SkillSpec {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
}

/** Everything particular to one agent; the runtime supplies the rest. */
export interface AgentDefinition {
  /** The contract name: `jira`, `github`, … (also the detected agent name of its package). */
  name: string;
  /** The name on the agent card, e.g. "Jira". */
  title: string;
  description: string;
  version?: string;
  systemPrompt: string;
  skills: SkillSpec[];
  /**
   * Builds the tools. It must not fail on missing credentials: a tool that needs them throws a
   * `user` SwitchboardError naming the variable when called, which fails that turn's task.
   */
  tools: (env: NodeJS.ProcessEnv) => AgentTool[];
  /**
   * MCP servers whose tools the agent also gets, by server name: `{ command, args, env }` (stdio) or
   * `{ url, headers }` (Streamable HTTP); `${VAR}` in a value is filled from the env. The
   * `<AGENT>_MCP_SERVERS` variable adds servers, and replaces one of the same name.
   */
  mcpServers?: Record<string, McpServerInput>;
  /**
   * The vendor whose tokens users may link for their own calls (its vendor client declares
   * `linkedToken` with the same code). Absent: the agent acts with its service credential only.
   */
  linkedTokens?: LinkableVendor;
  /**
   * A graph of the agent's own instead of the standard tool-calling agent (the supervisor has one).
   * It must be compiled with the given checkpointer (and no other), which shares the turn's first
   * read of the thread with the runtime.
   */
  graph?: (deps: GraphDeps) => TurnGraph;
  /**
   * Adds what the agent needs beyond its tools and graph (routes, metrics, a deletion step, cleanup)
   * through its host, once at start. An agent with a graph of its own may add them there instead,
   * where what it builds for the graph is at hand.
   */
  extend?: (host: AgentHost) => void;
}

/** What an agent's own graph is built with; it may add to the runtime through the same host. */
export interface GraphDeps extends AgentHost {
  model: BaseChatModel;
  /**
   * How much of a conversation the model may be sent (see `boundedHistory` in context-budget);
   * undefined: all of it (offline mode, or ENABLE_AUTO_COMPRESSION=false).
   */
  context: ContextBudget | undefined;
  checkpointer: BaseCheckpointSaver;
  /**
   * The caller's long-term memories for the running turn and the `remember` tool (undefined when
   * LANGGRAPH_STORE_TYPE=none): a graph of its own adds them to its model calls itself.
   */
  memories?: TurnMemories;
  /**
   * The tools the graph runs itself (memories' `remember`, any of its own), behind the runtime's one
   * guard: every call decided by the agent's policy and audited as the standard agent's are. A graph
   * of its own runs no tool any other way.
   */
  guardTools(tools: AgentTool[]): GuardedTools;
}

/**
 * What the runtime needs of a compiled LangGraph graph to run turns on it. The turn's outcome (an
 * answer, or the interrupt that paused it) is read from the stream's "values" chunks.
 */
export interface TurnGraph {
  stream(
    input: unknown,
    options: {
      configurable: { thread_id: string };
      /**
       * The turn, as LangGraph's run context: a node reads it with `turnOf(config)`, a middleware
       * with `turnOf(request.runtime)`. Never persisted (see context/turn-context.ts).
       */
      context: TurnContext;
      signal: AbortSignal;
      streamMode: Array<"updates" | "values" | "messages">;
      durability: "sync" | "async" | "exit";
      /** LangChain callbacks for the turn (model and tool call metrics and spans). */
      callbacks?: BaseCallbackHandler[];
    },
  ): Promise<AsyncIterable<unknown>>;
}
