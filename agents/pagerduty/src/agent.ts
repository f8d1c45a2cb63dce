import type { AgentDefinition } from "@switchboard/agent-runtime";
import { pagerDutyConnection } from "./client.js";
import { PAGERDUTY_PROMPT } from "./prompt.js";
import { pagerDutyTools } from "./tools.js";

export const pagerdutyAgent: AgentDefinition = {
  name: "pagerduty",
  title: "PagerDuty",
  description: "Finds PagerDuty incidents and who is on call; acknowledges, resolves and creates incidents.",
  systemPrompt: PAGERDUTY_PROMPT,
  skills: [
    {
      id: "pagerduty_incidents",
      name: "PagerDuty incidents and on-call",
      description: "List and read incidents, see who is on call, list services.",
      tags: ["pagerduty", "incidents", "on-call", "alerts"],
      examples: ["Which incidents are open?", "Who is on call for platform?", "Show incident 101"],
    },
    {
      id: "pagerduty_changes",
      name: "PagerDuty changes",
      description: "Acknowledge, resolve and create incidents (asks before changing anything).",
      tags: ["pagerduty", "acknowledge", "resolve", "create", "page"],
      examples: ["Acknowledge incident Q0CHECKOUT5XX", "Page checkout-api: payments failing"],
    },
  ],
  tools: (env) => pagerDutyTools(pagerDutyConnection(env)),
  linkedTokens: {
    vendor: "pagerduty",
    title: "PagerDuty",
    hint: "a user API token (My Profile > User Settings > Create API User Token)",
  },
};
