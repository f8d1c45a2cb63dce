import type { AgentDefinition } from "@switchboard/agent-runtime";
import { gitLabConnection } from "./client.js";
import { GITLAB_PROMPT } from "./prompt.js";
import { gitLabTools } from "./tools.js";

export const gitlabAgent: AgentDefinition = {
  name: "gitlab",
  title: "GitLab",
  description:
    "Reads GitLab projects, merge requests and pipelines; opens merge requests and issues, retries pipelines.",
  systemPrompt: GITLAB_PROMPT,
  skills: [
    {
      id: "gitlab_projects",
      name: "GitLab projects, merge requests and pipelines",
      description: "Find projects; list merge requests and CI/CD pipelines.",
      tags: ["gitlab", "merge requests", "pipelines", "ci"],
      examples: ["Open merge requests in platform/deploy-tools", "Failed pipelines in platform/deploy-tools"],
    },
    {
      id: "gitlab_changes",
      name: "GitLab changes",
      description: "Open merge requests and issues, retry pipelines (asks before changing anything).",
      tags: ["gitlab", "merge request", "issue", "retry"],
      examples: [
        "Open an MR in platform/deploy-tools from fix/timeout: Raise the timeout",
        "Retry pipeline 903",
      ],
    },
  ],
  tools: (env) => gitLabTools(gitLabConnection(env)),
  linkedTokens: {
    vendor: "gitlab",
    title: "GitLab",
    hint: "a personal access token with scope api (read_api for reading only)",
  },
};
