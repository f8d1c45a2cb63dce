import { z } from "zod";
import { type AgentTool, defineTool } from "../tools/define-tool.js";
import { MAX_MEMORY_CHARS, type MemoryBook } from "./memory-book.js";
import { ownerOfPrincipal } from "./owner.js";

/**
 * `remember`, which every agent has: the user's own request to keep a fact for later
 * conversations. Whose memory it is comes from the call's verified caller (`ctx.principal`), never
 * from the arguments.
 */
export function rememberTool(book: MemoryBook): AgentTool {
  return defineTool({
    name: "remember",
    description:
      "Keep a lasting fact about the user for later conversations, when they ask you to remember it " +
      "(their team, project keys, repositories, regions, naming conventions, preferences). Never for passwords, tokens or keys.",
    schema: z.object({
      memory: z.string().min(1).max(MAX_MEMORY_CHARS).describe("The fact, as one sentence"),
      topic: z.string().min(1).max(80).describe("2-4 words naming what it is about, e.g. 'jira project'"),
    }),
    // What later prompts (and subagents) read: decided by the policy as every tool, and on record.
    audited: true,
    run: async ({ memory, topic }, ctx) => {
      const owner = ownerOfPrincipal(ctx.principal);
      const result = await book.remember(owner, memory, topic, "user");
      if (result.status === "refused") return result.reason;
      return result.status === "updated"
        ? `Updated what I remember about ${topic}.`
        : `I will remember that.`;
    },
  });
}
