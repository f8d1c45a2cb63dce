import type { AgentTool } from "@switchboard/agent-runtime";
import type { AgentSpec, DefinitionProblem } from "../definitions/spec.js";
import { asksFor } from "./confirmations.js";

/** A connected tool source (an MCP server, an OpenAPI description), shared by every agent of the host. */
export interface ToolSource {
  tools(options?: {
    prefix?: string;
    only?: string[];
    asks?: (tool: string, hints?: { destructive?: boolean }) => boolean | undefined;
  }): AgentTool[];
}

/**
 * The tools an agent allows (`allowed_tools`: source id → all, or tool names), each offered to the
 * model as CAIPE names it, `<source_id>_<tool>`, with the agent's own confirmations. A source the host
 * does not have, or a tool name its source does not offer, is a problem naming the field.
 */
export function toolsFor(
  spec: AgentSpec,
  sources: ReadonlyMap<string, ToolSource>,
): { tools: AgentTool[]; problems: DefinitionProblem[] } {
  const tools: AgentTool[] = [];
  const problems: DefinitionProblem[] = [];
  for (const [id, allowed] of Object.entries(spec.allowedTools)) {
    const field = `allowed_tools.${id}`;
    const source = sources.get(id);
    if (!source) {
      problems.push({
        agent: spec.id,
        field,
        message: `no MCP server or OpenAPI source "${id}" is configured (or it could not be reached): add it to mcp_servers or openapi_sources, or remove it from allowed_tools.`,
      });
      continue;
    }
    const only = allowed === true || allowed.length === 0 ? undefined : allowed;
    const asks = asksFor(spec, id);
    try {
      // A name the source does not serve is refused by it, with the names it does serve.
      tools.push(...source.tools({ prefix: `${id}_`, ...(only ? { only } : {}), ...(asks ? { asks } : {}) }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push({
        agent: spec.id,
        field,
        message: `${reason} Use its names, without the "${id}_" prefix.`,
      });
    }
  }
  return { tools, problems };
}
