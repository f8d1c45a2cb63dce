import type { AgentDefinition } from "@switchboard/agent-runtime";
import { slackConnection } from "./client.js";
import { SLACK_PROMPT } from "./prompt.js";
import { slackTools } from "./tools.js";

export const slackAgent: AgentDefinition = {
  name: "slack",
  title: "Slack",
  description: "Finds Slack channels and reads their recent messages; posts messages.",
  systemPrompt: SLACK_PROMPT,
  skills: [
    {
      id: "slack_channels",
      name: "Slack channels and history",
      description: "Find channels and read their recent messages.",
      tags: ["slack", "channels", "messages", "chat"],
      examples: ["Which Slack channels are about incidents?", "What happened in #incidents recently?"],
    },
    {
      id: "slack_changes",
      name: "Slack messages",
      description: "Post a message to a channel or thread (asks before posting).",
      tags: ["slack", "post", "message", "notify"],
      examples: ["Post to #platform-team: deploy freeze from 17:00"],
    },
  ],
  tools: (env) => slackTools(slackConnection(env)),
};
