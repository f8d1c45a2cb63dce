import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import { type GithubConnection, NO_RETRY } from "./client.js";
import {
  formatIssueLine,
  formatPull,
  formatPullLine,
  formatRepo,
  formatRepoLine,
  formatRunLine,
  type GithubIssue,
} from "./format.js";

/** A repository argument: owner/name, or (with GITHUB_ORG) a bare name in that organization. */
function repoNameIn(org: string | undefined) {
  return org
    ? z
        .string()
        .regex(/^[\w.-]+(\/[\w.-]+)?$/, `owner/name, or a repository name in ${org}`)
        .transform((name) => (name.includes("/") ? name : `${org}/${name}`))
        .describe(`The repository as owner/name, or its name alone for one in ${org}`)
    : z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+$/, "owner/name, e.g. acme/platform-api")
        .transform((name) => name)
        .describe("The repository as owner/name, e.g. acme/platform-api");
}
type RepoName = ReturnType<typeof repoNameIn>;
const limit = (fallback: number) =>
  z.number().int().min(1).max(100).default(fallback).describe("How many to list");

/** The issues endpoint returns pull requests too; this many pages of 100 are searched for plain issues. */
const MAX_ISSUE_PAGES = 3;

const RUN_STATUSES = [
  "queued",
  "in_progress",
  "completed",
  "waiting",
  "requested",
  "pending",
  "success",
  "failure",
  "cancelled",
  "skipped",
  "timed_out",
  "neutral",
  "action_required",
  "stale",
] as const;

function split(fullName: string): { owner: string; repo: string } {
  const [owner = "", repo = ""] = fullName.split("/");
  return { owner, repo };
}

/**
 * What a call on one repository acts on, for the policy: its owner and `owner/repo`, in lower case,
 * because GitHub's logins and repository names ignore case (Acme/API is acme/api).
 */
export function repoResource(fullName: string): { owner: string; repository: string } {
  const repository = fullName.toLowerCase();
  return { owner: split(repository).owner, repository };
}

function hasNextPage(headers: { link?: string }): boolean {
  return /rel="next"/.test(headers.link ?? "");
}

const MORE = "\n(more match; narrow the filter or raise the limit to see them)";

/** The agent's tools; `org` (GITHUB_ORG) is the owner of repositories named without one. */
export function githubTools(github: GithubConnection, org?: string): AgentTool[] {
  const repoName = repoNameIn(org);
  return [
    listRepos(github, org),
    getRepo(github, repoName),
    listPullRequests(github, repoName),
    getPullRequest(github, repoName),
    listIssues(github, repoName),
    listWorkflowRuns(github, repoName),
    createIssue(github, repoName),
    createPullRequest(github, repoName),
  ];
}

const listRepos = (github: GithubConnection, org: string | undefined) =>
  defineTool({
    name: "list_repos",
    description: org
      ? `List repositories: without owner, those of ${org}; with owner, an organization's or a user's`
      : "List repositories: without owner, those of the token's user (including private ones and their organizations'); with owner, an organization's or a user's",
    schema: z.object({
      owner: z
        .string()
        .optional()
        .transform((owner) => owner ?? org)
        .describe(
          org
            ? `An organization or user login; default ${org}`
            : "An organization or user login; leave out for your own repositories",
        ),
      limit: limit(30),
    }),
    // Without an owner the token's own repositories are listed: the tool as a whole.
    resource: ({ owner }): Record<string, string> => (owner ? { owner: owner.toLowerCase() } : {}),
    run: async ({ owner, limit }, ctx) => {
      const { data, headers } = await github.call(ctx, async (client, { auth }) => {
        if (!owner && auth.kind === "app") {
          // An App installation has no user of its own: the repositories it was given.
          const answer = await client.rest.apps.listReposAccessibleToInstallation({ per_page: limit });
          return { data: answer.data.repositories, headers: answer.headers };
        }
        if (!owner) return client.rest.repos.listForAuthenticatedUser({ per_page: limit, sort: "pushed" });
        try {
          return await client.rest.repos.listForOrg({ org: owner, per_page: limit, sort: "pushed" });
        } catch (error) {
          // Not an organization: a user's public repositories live under /users.
          const { RequestError } = await import("octokit");
          if (error instanceof RequestError && error.status === 404) {
            return client.rest.repos.listForUser({ username: owner, per_page: limit, sort: "pushed" });
          }
          throw error;
        }
      });
      if (data.length === 0)
        return owner ? `${owner} has no repositories you can see.` : "You have no repositories.";
      return `${data.map(formatRepoLine).join("\n")}${hasNextPage(headers) ? MORE : ""}`;
    },
  });

const getRepo = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "get_repo",
    description: "Get one repository: description, visibility, default branch, language, topics, activity",
    schema: z.object({ repo: repoName }),
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo }, ctx) => {
      const { data } = await github.call(ctx, (client) => client.rest.repos.get(split(repo)));
      return formatRepo(data);
    },
  });

const listPullRequests = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "list_pull_requests",
    description: "List a repository's pull requests, most recently updated first",
    schema: z.object({
      repo: repoName,
      state: z.enum(["open", "closed", "all"]).default("open"),
      limit: limit(20),
    }),
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo, state, limit }, ctx) => {
      const { data, headers } = await github.call(ctx, (client) =>
        client.rest.pulls.list({
          ...split(repo),
          state,
          per_page: limit,
          sort: "updated",
          direction: "desc",
        }),
      );
      if (data.length === 0) return `No ${state === "all" ? "" : `${state} `}pull requests in ${repo}.`;
      return `${data.map(formatPullLine).join("\n")}${hasNextPage(headers) ? MORE : ""}`;
    },
  });

const getPullRequest = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "get_pull_request",
    description: "Get one pull request: state, branches, mergeability, size and description",
    schema: z.object({ repo: repoName, number: z.number().int().min(1) }),
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo, number }, ctx) => {
      const { data } = await github.call(ctx, (client) =>
        client.rest.pulls.get({ ...split(repo), pull_number: number }),
      );
      return formatPull(data);
    },
  });

const listIssues = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "list_issues",
    description: "List a repository's issues (pull requests left out), most recently created first",
    schema: z.object({
      repo: repoName,
      state: z.enum(["open", "closed", "all"]).default("open"),
      labels: z.array(z.string()).optional().describe("Only issues with all of these labels"),
      limit: limit(20),
    }),
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo, state, labels, limit }, ctx) => {
      const { issues, more } = await github.call(ctx, async (client) => {
        const found: GithubIssue[] = [];
        let pages = 0;
        const iterator = client.paginate.iterator(client.rest.issues.listForRepo, {
          ...split(repo),
          state,
          ...(labels?.length ? { labels: labels.join(",") } : {}),
          per_page: 100,
        });
        for await (const { data, headers } of iterator) {
          pages += 1;
          found.push(...data.filter((item) => !item.pull_request));
          if (found.length > limit || pages === MAX_ISSUE_PAGES) {
            return { issues: found.slice(0, limit), more: found.length > limit || hasNextPage(headers) };
          }
        }
        return { issues: found, more: false };
      });
      if (issues.length === 0) {
        return `No ${state === "all" ? "" : `${state} `}issues in ${repo}${labels?.length ? ` labelled ${labels.join(", ")}` : ""}.`;
      }
      return `${issues.map(formatIssueLine).join("\n")}${more ? MORE : ""}`;
    },
  });

const listWorkflowRuns = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "list_workflow_runs",
    description:
      "List a repository's GitHub Actions workflow runs, newest first, e.g. the failed runs on main",
    schema: z.object({
      repo: repoName,
      status: z
        .enum(RUN_STATUSES)
        .optional()
        .describe("A run status or conclusion, e.g. failure, in_progress"),
      branch: z.string().optional(),
      limit: limit(10),
    }),
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo, status, branch, limit }, ctx) => {
      const { data } = await github.call(ctx, (client) =>
        client.rest.actions.listWorkflowRunsForRepo({
          ...split(repo),
          per_page: limit,
          ...(status ? { status } : {}),
          ...(branch ? { branch } : {}),
        }),
      );
      const runs = data.workflow_runs;
      if (runs.length === 0) return `No workflow runs in ${repo} match.`;
      const more = data.total_count > runs.length ? MORE : "";
      return `${runs.map(formatRunLine).join("\n")}${more}`;
    },
  });

const createIssue = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "create_issue",
    description: "Create an issue in a repository",
    schema: z.object({
      repo: repoName,
      title: z.string().min(1),
      body: z.string().optional(),
      labels: z.array(z.string()).optional(),
      assignees: z.array(z.string()).optional().describe("Logins to assign"),
    }),
    confirm: ({ repo, title }) => `Create an issue in ${repo}: "${title}".`,
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo, title, body, labels, assignees }, ctx) => {
      const { data } = await github.call(ctx, (client) =>
        client.rest.issues.create({
          ...split(repo),
          title,
          ...(body ? { body } : {}),
          ...(labels?.length ? { labels } : {}),
          ...(assignees?.length ? { assignees } : {}),
          request: NO_RETRY,
        }),
      );
      return `Created issue #${data.number} in ${repo}: ${data.title} ${data.html_url}`;
    },
  });

const createPullRequest = (github: GithubConnection, repoName: RepoName) =>
  defineTool({
    name: "create_pull_request",
    description: "Open a pull request from an existing branch",
    schema: z.object({
      repo: repoName,
      title: z.string().min(1),
      head: z.string().min(1).describe("The branch with the changes"),
      base: z.string().optional().describe("The branch to merge into; the default branch when left out"),
      body: z.string().optional(),
      draft: z.boolean().optional(),
    }),
    confirm: ({ repo, title, head, base, draft }) =>
      `Open a ${draft ? "draft " : ""}pull request in ${repo} from ${head} into ${base ?? "the default branch"}: "${title}".`,
    resource: ({ repo }) => repoResource(repo),
    run: async ({ repo, title, head, base, body, draft }, ctx) => {
      const { data } = await github.call(ctx, async (client) => {
        const into = base ?? (await client.rest.repos.get(split(repo))).data.default_branch;
        return client.rest.pulls.create({
          ...split(repo),
          title,
          head,
          base: into,
          ...(body ? { body } : {}),
          ...(draft ? { draft } : {}),
          request: NO_RETRY,
        });
      });
      return `Opened pull request #${data.number} in ${repo}: ${data.title} (${data.head.ref} → ${data.base.ref}) ${data.html_url}`;
    },
  });
