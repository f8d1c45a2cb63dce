import type { AgentDefinition } from "@switchboard/agent-runtime";
import { victorOpsClient } from "./client.js";
import { VICTOROPS_PROMPT } from "./prompt.js";
import { victorOpsTools } from "./tools.js";

export const victoropsAgent: AgentDefinition = {
  name: "victorops",
  title: "VictorOps (Splunk On-Call)",
  description:
    "VictorOps (Splunk On-Call): incidents, services (routing keys), teams and who is on call; creates, acknowledges and resolves incidents and adds notes behind confirmation",
  systemPrompt: VICTOROPS_PROMPT,
  skills: [
    {
      id: "victorops_incidents",
      name: "Splunk On-Call incidents and on-call",
      description: "List and read incidents, see who is on call per team, list teams and services.",
      tags: ["victorops", "splunk on-call", "incidents", "on-call"],
      examples: ["Which VictorOps incidents are open?", "Who is on call for platform?", "Show incident 411"],
    },
    {
      id: "victorops_changes",
      name: "Splunk On-Call changes",
      description: "Create, acknowledge and resolve incidents and add notes (asks before changing anything).",
      tags: ["victorops", "acknowledge", "resolve", "create", "note"],
      examples: ["Acknowledge incident 411", "Page pol-platform-primary: payments failing"],
    },
  ],
  tools: (env) => victorOpsTools(victorOpsClient(env)),
};
