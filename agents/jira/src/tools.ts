import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import { adfToText, textToAdf } from "./adf.js";
import type { JiraConnection } from "./client.js";
import { formatIssue, formatIssueLine, type JiraIssue } from "./format.js";

const SEARCH_FIELDS = ["summary", "status", "assignee", "priority", "issuetype", "updated"];

// An issue key names its project (PLAT-12 is in PLAT). Changes take keys only, not numeric issue
// ids: an id names no project, so a policy could neither scope nor forbid the call.
const issueKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]+-\d+$/, "an issue key like PLAT-12");

/**
 * What a call on one issue acts on, for the policy. Jira keeps project and issue keys in upper case
 * (it answers for plat-12 with PLAT-12), so that is how a policy names them.
 */
export function issueResource(key: string): { project: string; issue: string } {
  const issue = key.toUpperCase();
  return { project: issue.slice(0, issue.lastIndexOf("-")), issue };
}

export function jiraTools(jira: JiraConnection): AgentTool[] {
  return [
    searchIssues(jira),
    getIssue(jira),
    listProjects(jira),
    createIssue(jira),
    addComment(jira),
    transitionIssue(jira),
  ];
}

// A JQL query may name any number of projects (or none): the call is scoped by its tool only, and
// Jira's own permissions decide what it returns.
const searchIssues = (jira: JiraConnection) =>
  defineTool({
    name: "search_issues",
    description:
      'Search Jira issues with JQL, e.g. project = PLAT AND status = "In Progress" ORDER BY updated DESC',
    schema: z.object({
      jql: z.string().min(1).describe("A bounded JQL query (name a project, assignee, status or text)"),
      max_results: z.number().int().min(1).max(50).default(20),
    }),
    run: async ({ jql, max_results }, ctx) => {
      const result = await jira.call(ctx, (client) =>
        client.issueSearch.searchForIssuesUsingJqlEnhancedSearch({
          jql,
          fields: SEARCH_FIELDS,
          maxResults: max_results,
        }),
      );
      const issues = (result.issues ?? []) as JiraIssue[];
      if (issues.length === 0) return `No issues match: ${jql}`;
      const more = result.nextPageToken ? `\n(more issues match; narrow the JQL to see them)` : "";
      return `${issues.map(formatIssueLine).join("\n")}${more}`;
    },
  });

const getIssue = (jira: JiraConnection) =>
  defineTool({
    name: "get_issue",
    description: "Get one Jira issue with its description and latest comments",
    schema: z.object({ key: z.string().regex(/^[A-Z][A-Z0-9_]+-\d+$/, "an issue key like PLAT-12") }),
    resource: ({ key }) => issueResource(key),
    run: async ({ key }, ctx) => {
      const issue = await jira.call(ctx, (client) => client.issues.getIssue({ issueIdOrKey: key }));
      return formatIssue(issue as unknown as JiraIssue);
    },
  });

const listProjects = (jira: JiraConnection) =>
  defineTool({
    name: "list_projects",
    description: "List Jira projects (key and name), optionally filtered by a search text",
    schema: z.object({ query: z.string().optional() }),
    run: async ({ query }, ctx) => {
      const page = await jira.call(ctx, (client) =>
        client.projects.searchProjects({ query, maxResults: 50 }),
      );
      const projects = page.values ?? [];
      if (projects.length === 0) return query ? `No projects match "${query}".` : "No projects are visible.";
      return projects.map((project) => `${project.key}: ${project.name}`).join("\n");
    },
  });

const createIssue = (jira: JiraConnection) =>
  defineTool({
    name: "create_issue",
    description: "Create a Jira issue",
    schema: z.object({
      project: z.string().describe("Project key, e.g. PLAT"),
      summary: z.string().min(1),
      issue_type: z.string().default("Task").describe("Task, Bug, Story, …"),
      description: z.string().optional(),
      priority: z.string().optional().describe("Highest, High, Medium, Low, Lowest"),
      labels: z.array(z.string()).optional(),
    }),
    confirm: ({ project, summary, issue_type }) => `Create a Jira ${issue_type} in ${project}: "${summary}".`,
    resource: ({ project }) => ({ project: project.toUpperCase() }),
    run: async ({ project, summary, issue_type, description, priority, labels }, ctx) => {
      const created = await jira.call(ctx, (client) =>
        client.issues.createIssue({
          fields: {
            project: { key: project },
            summary,
            issuetype: { name: issue_type },
            ...(description ? { description: textToAdf(description) } : {}),
            ...(priority ? { priority: { name: priority } } : {}),
            ...(labels?.length ? { labels } : {}),
          },
        }),
      );
      return `Created ${created.key}: ${summary}`;
    },
  });

const addComment = (jira: JiraConnection) =>
  defineTool({
    name: "add_comment",
    description: "Add a comment to a Jira issue",
    schema: z.object({ key: issueKey, body: z.string().min(1) }),
    confirm: ({ key, body }) => `Add a comment to ${key}: "${body}".`,
    resource: ({ key }) => issueResource(key),
    run: async ({ key, body }, ctx) => {
      const comment = await jira.call(ctx, (client) =>
        client.issueComments.addComment({ issueIdOrKey: key, comment: textToAdf(body) }),
      );
      return `Commented on ${key} (comment ${comment.id}): ${adfToText(comment.body).trim()}`;
    },
  });

const transitionIssue = (jira: JiraConnection) =>
  defineTool({
    name: "transition_issue",
    description: "Move a Jira issue to another status (e.g. In Progress, Done)",
    schema: z.object({ key: issueKey, status: z.string().min(1) }),
    confirm: ({ key, status }) => `Move ${key} to "${status}".`,
    resource: ({ key }) => issueResource(key),
    run: async ({ key, status }, ctx) => {
      const { transitions = [] } = await jira.call(ctx, (client) =>
        client.issues.getTransitions({ issueIdOrKey: key }),
      );
      const wanted = status.toLowerCase();
      const match = transitions.find(
        (transition) =>
          transition.to?.name?.toLowerCase() === wanted || transition.name?.toLowerCase() === wanted,
      );
      if (!match?.id) {
        const options = transitions.map((transition) => transition.to?.name ?? transition.name).join(", ");
        return `${key} cannot move to "${status}". Available: ${options || "none"}.`;
      }
      await jira.call(ctx, (client) =>
        client.issues.doTransition({ issueIdOrKey: key, transition: { id: match.id } }),
      );
      return `Moved ${key} to ${match.to?.name ?? match.name}.`;
    },
  });
