import { type AgentDefinition, warnIfTlsUnverified } from "@switchboard/agent-runtime";
import { jiraConnection } from "./client.js";
import { JIRA_PROMPT } from "./prompt.js";
import { jiraTools } from "./tools.js";

export const jiraAgent: AgentDefinition = {
  name: "jira",
  title: "Jira",
  description: "Searches, reads, creates, comments on and transitions Jira issues.",
  systemPrompt: JIRA_PROMPT,
  skills: [
    {
      id: "jira_issues",
      name: "Jira issues",
      description: "Find and read Jira issues with JQL; list projects.",
      tags: ["jira", "issues", "tickets", "project management"],
      examples: ["Show my open issues in PLAT", "What is the status of OPS-12?", "List Jira projects"],
    },
    {
      id: "jira_changes",
      name: "Jira changes",
      description: "Create issues, add comments, move issues between statuses (asks before changing).",
      tags: ["jira", "create", "comment", "transition"],
      examples: ["Create a bug in OPS: certificate expires soon", "Move PLAT-3 to Done"],
    },
  ],
  tools: (env) => jiraTools(jiraConnection(env)),
  extend: ({ env, logger }) => warnIfTlsUnverified(env, "ATLASSIAN_VERIFY_SSL", "Jira", logger),
};
