import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { AgentTool } from "@switchboard/agent-runtime";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

/** Built on first use: the ranks are a few MB, and an agent that never counts never pays for them. */
let encoder: Tiktoken | undefined;

/**
 * The tokens (cl100k) the tools the model is offered cost each model turn: their definitions as a
 * chat model sends them (OpenAI's function-tool shape: name, description, JSON Schema parameters).
 * Providers frame them a little differently; the count is for comparing lists, not for billing.
 */
export function toolListTokens(tools: AgentTool[]): number {
  encoder ??= new Tiktoken(cl100k);
  const offered = tools.filter((tool) => tool.offered !== false).map(({ tool }) => convertToOpenAITool(tool));
  return offered.length === 0 ? 0 : encoder.encode(JSON.stringify(offered)).length;
}
