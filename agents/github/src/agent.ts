import type { AgentDefinition } from "@switchboard/agent-runtime";
import { githubConnection } from "./client.js";
import { GITHUB_PROMPT } from "./prompt.js";
import { githubTools } from "./tools.js";

export const githubAgent: AgentDefinition = {
  name: "github",
  title: "GitHub",
  description:
    "Reads repositories, pull requests, issues and Actions runs on GitHub; creates issues and pull requests.",
  systemPrompt: GITHUB_PROMPT,
  skills: [
    {
      id: "github_repositories",
      name: "GitHub repositories",
      description: "List and read repositories, pull requests, issues and GitHub Actions workflow runs.",
      tags: ["github", "repositories", "pull requests", "issues", "ci", "actions"],
      examples: [
        "List the repositories of acme",
        "Show open pull requests in acme/platform-api",
        "Which workflow runs failed on main in acme/infra?",
      ],
    },
    {
      id: "github_changes",
      name: "GitHub changes",
      description: "Create issues and open pull requests (asks before changing).",
      tags: ["github", "create", "issue", "pull request"],
      examples: [
        'Create an issue in acme/infra: "Rotate the deploy key"',
        "Open a PR in acme/platform-api from feature/audit-log into main",
      ],
    },
  ],
  tools: (env) => githubTools(githubConnection(env), env.GITHUB_ORG?.trim() || undefined),
  linkedTokens: {
    vendor: "github",
    title: "GitHub",
    hint: "a personal access token (fine-grained or classic) with the repositories you work on",
  },
};
