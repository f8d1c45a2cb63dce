import type { AgentDefinition } from "@switchboard/agent-runtime";
import { backstageConnection } from "./client.js";
import { BACKSTAGE_PROMPT } from "./prompt.js";
import { backstageTools } from "./tools.js";

export const backstageAgent: AgentDefinition = {
  name: "backstage",
  title: "Backstage",
  description:
    "Searches the Backstage software catalog: entities, owners, relations and links; refreshes an entity.",
  systemPrompt: BACKSTAGE_PROMPT,
  skills: [
    {
      id: "backstage_catalog",
      name: "Backstage catalog",
      description: "Search the catalog; read an entity's owner, relations and links.",
      tags: ["backstage", "catalog", "ownership", "services"],
      examples: ["Who owns checkout-api?", "Which services does the payments team own?"],
    },
    {
      id: "backstage_changes",
      name: "Backstage catalog refresh",
      description: "Refresh an entity from its catalog-info.yaml (asks first).",
      tags: ["backstage", "refresh"],
      examples: ["Refresh component:default/web-shop"],
    },
  ],
  tools: (env) => backstageTools(backstageConnection(env)),
};
