import type { StructuredToolInterface } from "@langchain/core/tools";

/** One skill on the agent card: what the supervisor's model reads to decide where to route. */
export interface SkillSpec {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
}

/**
 * A tool the agent may call. Tools that change anything carry `confirm`: the turn pauses (a
 * LangGraph interrupt persisted in the checkpoint) and the A2A task asks the user this question
 * before the tool runs.
 */
export interface AgentTool {
  tool: StructuredToolInterface;
  confirm?: (args: Record<string, unknown>) => string;
}

/** Everything particular to one agent; the runtime supplies the rest. */
export interface AgentDefinition {
  /** The contract name: `jira`, `github`, … (also the detected agent name of its package). */
  name: string;
  /** The name on the agent card, e.g. "Jira". */
  title: string;
  description: string;
  version?: string;
  /** The agent's port in the contract; `PORT` overrides. */
  defaultPort: number;
  systemPrompt: string;
  skills: SkillSpec[];
  /**
   * Builds the tools. It must not fail on missing credentials: a tool that needs them throws a
   * `user` SwitchboardError naming the variable when called, which fails that turn's task.
   */
  tools: (env: NodeJS.ProcessEnv) => AgentTool[];
}

export function readTool(tool: StructuredToolInterface): AgentTool {
  return { tool };
}

export function changeTool<A extends Record<string, unknown>>(
  tool: StructuredToolInterface,
  confirm: (args: A) => string,
): AgentTool {
  return { tool, confirm: confirm as (args: Record<string, unknown>) => string };
}
