import type { AgentDefinition } from "@switchboard/agent-runtime";
import { webexClient } from "./client.js";
import { WEBEX_PROMPT } from "./prompt.js";
import { webexTools } from "./tools.js";

export const webexAgent: AgentDefinition = {
  name: "webex",
  title: "Webex",
  description:
    "Webex: rooms (spaces), messages, threads and members; posts messages, creates rooms and adds people behind confirmation",
  systemPrompt: WEBEX_PROMPT,
  skills: [
    {
      id: "webex_rooms",
      name: "Webex rooms and messages",
      description: "List rooms, read a room's messages and threads, list its members.",
      tags: ["webex", "rooms", "spaces", "messages", "threads"],
      examples: [
        "Which Webex rooms am I in?",
        "What was said in Platform incidents?",
        "Who is in Release train?",
      ],
    },
    {
      id: "webex_changes",
      name: "Webex changes",
      description: "Post messages and replies, create rooms, add people (asks before changing anything).",
      tags: ["webex", "post", "create room", "add people"],
      examples: ["Post to Platform incidents: rollback done", "Add bob@example.com to Release train"],
    },
  ],
  tools: (env) => webexTools(webexClient(env)),
};
