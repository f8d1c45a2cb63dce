import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { GitLabConnection } from "./client.js";
import {
  formatMergeRequest,
  formatPipeline,
  formatProject,
  type GitLabMergeRequest,
  type GitLabPipeline,
  type GitLabProject,
} from "./format.js";

// Users name projects by path (group/subgroup/name); GitLab takes the path wherever it takes the id.
const project = z
  .string()
  .min(1)
  .describe("The project's full path, e.g. platform/deploy-tools, or its numeric id");
/**
 * What a call on one project acts on, for the policy: the project's path in lower case (GitLab finds
 * Platform/Deploy-Tools at platform/deploy-tools: its routes ignore case), and its top-level group.
 * A numeric id names the project only by that id: a policy scoped by path does not match it.
 */
export function projectResource(given: string): { project: string; group?: string } {
  const project = given.trim().toLowerCase();
  const slash = project.indexOf("/");
  return slash > 0 ? { project, group: project.slice(0, slash) } : { project };
}

// One page is plenty for a chat answer; gitbeaker would otherwise follow every next page.
const ONE_PAGE = { perPage: 20, maxPages: 1, page: 1 } as const;

export function gitLabTools(gitlab: GitLabConnection): AgentTool[] {
  return [
    listProjects(gitlab),
    listMergeRequests(gitlab),
    listPipelines(gitlab),
    createMergeRequest(gitlab),
    createIssue(gitlab),
    retryPipeline(gitlab),
  ];
}

const listProjects = (gitlab: GitLabConnection) =>
  defineTool({
    name: "list_projects",
    description: "List the GitLab projects you are a member of, optionally those whose path contains a text",
    schema: z.object({ search: z.string().optional() }),
    run: async ({ search }, ctx) => {
      const projects = (await gitlab.call(ctx, (client) =>
        client.Projects.all({ ...ONE_PAGE, membership: true, ...(search ? { search } : {}) }),
      )) as GitLabProject[];
      if (projects.length === 0)
        return search ? `No projects match "${search}".` : "No projects are visible.";
      return projects.map(formatProject).join("\n");
    },
  });

const listMergeRequests = (gitlab: GitLabConnection) =>
  defineTool({
    name: "list_merge_requests",
    description: "List a GitLab project's merge requests, newest first (open ones by default)",
    schema: z.object({
      project,
      state: z.enum(["opened", "merged", "closed", "all"]).default("opened"),
    }),
    resource: ({ project: projectId }) => projectResource(projectId),
    run: async ({ project: projectId, state }, ctx) => {
      const mrs = (await gitlab.call(ctx, (client) =>
        client.MergeRequests.all({ ...ONE_PAGE, projectId, ...(state === "all" ? {} : { state }) }),
      )) as GitLabMergeRequest[];
      if (mrs.length === 0) return `No ${state === "all" ? "" : `${state} `}merge requests in ${projectId}.`;
      return mrs.map(formatMergeRequest).join("\n");
    },
  });

const listPipelines = (gitlab: GitLabConnection) =>
  defineTool({
    name: "list_pipelines",
    description: "List a GitLab project's CI/CD pipelines, newest first, optionally by branch or status",
    schema: z.object({
      project,
      ref: z.string().optional().describe("A branch or tag"),
      status: z
        .enum(["running", "pending", "success", "failed", "canceled", "skipped", "created"])
        .optional(),
    }),
    resource: ({ project: projectId }) => projectResource(projectId),
    run: async ({ project: projectId, ref, status }, ctx) => {
      const pipelines = (await gitlab.call(ctx, (client) =>
        client.Pipelines.all(projectId, {
          ...ONE_PAGE,
          ...(ref ? { ref } : {}),
          ...(status ? { status } : {}),
        }),
      )) as GitLabPipeline[];
      if (pipelines.length === 0)
        return `No ${status ? `${status} ` : ""}pipelines in ${projectId}${ref ? ` on ${ref}` : ""}.`;
      return pipelines.map(formatPipeline).join("\n");
    },
  });

const createMergeRequest = (gitlab: GitLabConnection) =>
  defineTool({
    name: "create_merge_request",
    description: "Open a GitLab merge request from a branch (into the default branch unless told otherwise)",
    schema: z.object({
      project,
      source_branch: z.string().min(1),
      target_branch: z.string().optional().describe("Default: the project's default branch"),
      title: z.string().min(1),
      description: z.string().optional(),
    }),
    confirm: ({ project: projectId, source_branch, target_branch, title }) =>
      `Open a merge request in ${projectId} from ${source_branch} into ${target_branch ?? "the default branch"}: "${title}".`,
    resource: ({ project: projectId }) => projectResource(projectId),
    run: async ({ project: projectId, source_branch, target_branch, title, description }, ctx) => {
      const target =
        target_branch ??
        ((await gitlab.call(ctx, (client) => client.Projects.show(projectId))) as GitLabProject)
          .default_branch ??
        "main";
      const mr = (await gitlab.call(ctx, (client) =>
        client.MergeRequests.create(projectId, source_branch, target, title, {
          ...(description ? { description } : {}),
        }),
      )) as GitLabMergeRequest;
      return `Opened merge request ${formatMergeRequest(mr)} in ${projectId}${mr.web_url ? `: ${mr.web_url}` : ""}`;
    },
  });

const createIssue = (gitlab: GitLabConnection) =>
  defineTool({
    name: "create_issue",
    description: "Create an issue in a GitLab project",
    schema: z.object({
      project,
      title: z.string().min(1),
      description: z.string().optional(),
      labels: z.array(z.string()).optional(),
    }),
    confirm: ({ project: projectId, title }) => `Create an issue in ${projectId}: "${title}".`,
    resource: ({ project: projectId }) => projectResource(projectId),
    run: async ({ project: projectId, title, description, labels }, ctx) => {
      const issue = (await gitlab.call(ctx, (client) =>
        client.Issues.create(projectId, title, {
          ...(description ? { description } : {}),
          ...(labels?.length ? { labels: labels.join(",") } : {}),
        }),
      )) as { iid: number; title: string; web_url?: string };
      return `Created issue #${issue.iid} in ${projectId}: ${issue.title}${issue.web_url ? ` (${issue.web_url})` : ""}`;
    },
  });

const retryPipeline = (gitlab: GitLabConnection) =>
  defineTool({
    name: "retry_pipeline",
    description: "Retry the failed and canceled jobs of a GitLab pipeline",
    schema: z.object({ project, pipeline_id: z.number().int().min(1) }),
    confirm: ({ project: projectId, pipeline_id }) => `Retry pipeline ${pipeline_id} in ${projectId}.`,
    resource: ({ project: projectId }) => projectResource(projectId),
    run: async ({ project: projectId, pipeline_id }, ctx) => {
      const pipeline = (await gitlab.call(ctx, (client) =>
        client.Pipelines.retry(projectId, pipeline_id),
      )) as GitLabPipeline;
      return `Retried ${formatPipeline(pipeline)} in ${projectId}`;
    },
  });
