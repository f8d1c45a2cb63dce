import { type AgentDefinition, warnIfTlsUnverified } from "@switchboard/agent-runtime";
import { confluenceConnection } from "./client.js";
import { CONFLUENCE_PROMPT } from "./prompt.js";
import { confluenceTools } from "./tools.js";

export const confluenceAgent: AgentDefinition = {
  name: "confluence",
  title: "Confluence",
  description: "Searches Confluence with CQL and reads pages; creates and updates pages.",
  systemPrompt: CONFLUENCE_PROMPT,
  skills: [
    {
      id: "confluence_pages",
      name: "Confluence search and pages",
      description: "Search with CQL and read pages.",
      tags: ["confluence", "wiki", "docs", "runbooks", "cql"],
      examples: ["Find the checkout runbook in OPS", "Read page 65537"],
    },
    {
      id: "confluence_changes",
      name: "Confluence changes",
      description: "Create and update pages (asks before changing anything).",
      tags: ["confluence", "create", "update"],
      examples: ["Create a page in ENG titled Deploy freeze"],
    },
  ],
  tools: (env) => confluenceTools(confluenceConnection(env)),
  extend: ({ env, logger }) => warnIfTlsUnverified(env, "ATLASSIAN_VERIFY_SSL", "Confluence", logger),
};
