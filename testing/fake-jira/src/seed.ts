import { type AdfDocument, textToAdf } from "./adf.js";
import type { FakeJiraState, IssueRecord, JiraProject, JiraUser } from "./state.js";
import { findStatus, issueTypes, priorities } from "./workflow.js";

export interface IssueSeed {
  /** Defaults to the project's next number, e.g. `PLAT-5`. */
  key?: string;
  project: string;
  summary: string;
  /** Plain text becomes one ADF paragraph per line. */
  description?: string | AdfDocument | null;
  /** One of: To Do, In Progress, In Review, Done. */
  status?: string;
  /** One of: Task, Bug, Story, Epic. */
  issueType?: string;
  /** One of: Highest, High, Medium, Low, Lowest. */
  priority?: string;
  /** accountId, or null for unassigned. */
  assignee?: string | null;
  reporter?: string;
  labels?: string[];
  /** ISO timestamps. */
  created?: string;
  updated?: string;
  comments?: { author?: string; body: string | AdfDocument; created?: string }[];
}

export interface JiraSeed {
  users: JiraUser[];
  projects: JiraProject[];
  issues: IssueSeed[];
}

const agent: JiraUser = {
  accountId: "712020:5f1b2c3d-agent",
  displayName: "Switchboard Agent",
  emailAddress: "agent@example.com",
  timeZone: "UTC",
  active: true,
};
const alice: JiraUser = {
  accountId: "712020:a1ice000-0001",
  displayName: "Alice Nguyen",
  emailAddress: "alice@example.com",
  timeZone: "Europe/Berlin",
  active: true,
};
const bob: JiraUser = {
  accountId: "712020:b0b00000-0002",
  displayName: "Bob Martins",
  emailAddress: "bob@example.com",
  timeZone: "America/New_York",
  active: true,
};

/** Two projects and six issues across every status, so searches have something to find. */
export function defaultJiraSeed(): JiraSeed {
  return {
    users: [agent, alice, bob],
    projects: [
      {
        id: "10000",
        key: "PLAT",
        name: "Platform Engineering",
        description: "Internal developer platform",
        leadAccountId: alice.accountId,
      },
      {
        id: "10001",
        key: "OPS",
        name: "Operations",
        description: "On-call and incidents",
        leadAccountId: bob.accountId,
      },
    ],
    issues: [
      {
        project: "PLAT",
        summary: "Upgrade EKS cluster to 1.30",
        description: "The staging and prod clusters run 1.28.\nUpgrade both before end of support.",
        status: "In Progress",
        issueType: "Task",
        priority: "High",
        assignee: alice.accountId,
        reporter: bob.accountId,
        labels: ["eks", "upgrade"],
        created: "2025-03-03T09:00:00.000Z",
        updated: "2025-03-10T14:30:00.000Z",
        comments: [
          {
            author: bob.accountId,
            body: "Staging is done, prod next week.",
            created: "2025-03-10T14:30:00.000Z",
          },
        ],
      },
      {
        project: "PLAT",
        summary: "CI pipeline flaky on integration tests",
        description: "The integration job fails about one run in five with a socket timeout.",
        status: "To Do",
        issueType: "Bug",
        priority: "Medium",
        assignee: null,
        reporter: alice.accountId,
        labels: ["ci"],
        created: "2025-03-05T11:20:00.000Z",
        updated: "2025-03-05T11:20:00.000Z",
      },
      {
        project: "PLAT",
        summary: "Document the service template",
        description: "Write a README for the golden-path service template.",
        status: "Done",
        issueType: "Story",
        priority: "Low",
        assignee: agent.accountId,
        reporter: alice.accountId,
        created: "2025-02-20T08:00:00.000Z",
        updated: "2025-02-27T16:45:00.000Z",
      },
      {
        project: "PLAT",
        summary: "Rotate the GitHub App private key",
        description: "The key expires next month.",
        status: "In Review",
        issueType: "Task",
        priority: "Highest",
        assignee: bob.accountId,
        reporter: bob.accountId,
        labels: ["security"],
        created: "2025-03-07T10:00:00.000Z",
        updated: "2025-03-08T09:15:00.000Z",
      },
      {
        project: "OPS",
        summary: "Disk usage alert on db-02",
        description: "Disk at 91% on db-02; the WAL volume is filling up.",
        status: "To Do",
        issueType: "Bug",
        priority: "High",
        assignee: bob.accountId,
        reporter: agent.accountId,
        labels: ["alert", "database"],
        created: "2025-03-09T03:12:00.000Z",
        updated: "2025-03-09T03:12:00.000Z",
      },
      {
        project: "OPS",
        summary: "Quarterly on-call review",
        description: null,
        status: "Done",
        issueType: "Task",
        priority: "Medium",
        assignee: alice.accountId,
        reporter: alice.accountId,
        created: "2025-01-15T13:00:00.000Z",
        updated: "2025-01-20T13:00:00.000Z",
      },
    ],
  };
}

/** Builds the in-memory state; `email` is the account the fake authenticates and acts as. */
export function buildState(seed: JiraSeed, email: string): FakeJiraState {
  const users = [...seed.users];
  let current = users.find((u) => u.emailAddress.toLowerCase() === email.toLowerCase());
  if (!current) {
    current = {
      accountId: `712020:${Buffer.from(email).toString("hex").slice(0, 12)}`,
      displayName: email.split("@")[0] ?? email,
      emailAddress: email,
      timeZone: "UTC",
      active: true,
    };
    users.push(current);
  }
  const state: FakeJiraState = {
    users,
    projects: [...seed.projects],
    issues: [],
    comments: [],
    transitions: [],
    requests: [],
    currentAccountId: current.accountId,
    nextIssueId: 10001,
    nextCommentId: 10001,
  };
  for (const issue of seed.issues) addSeedIssue(state, issue);
  return state;
}

export function addSeedIssue(state: FakeJiraState, seed: IssueSeed): IssueRecord {
  const project = state.projects.find((p) => p.key === seed.project.toUpperCase());
  if (!project)
    throw new Error(`Seed issue "${seed.summary}" names project ${seed.project}, which the seed lacks.`);
  const status = findStatus(seed.status ?? "To Do");
  if (!status) throw new Error(`Seed issue "${seed.summary}" has unknown status "${seed.status}".`);
  const created = new Date(seed.created ?? Date.now());
  const updated = new Date(seed.updated ?? created);
  const description = seed.description ?? null;
  const issue: IssueRecord = {
    id: String(state.nextIssueId++),
    key: seed.key ?? `${project.key}-${nextNumber(state, project.key)}`,
    projectKey: project.key,
    summary: seed.summary,
    description: typeof description === "string" ? textToAdf(description) : description,
    status: status.name,
    issueType: pick(issueTypes, seed.issueType ?? "Task", "issue type"),
    priority: pick(priorities, seed.priority ?? "Medium", "priority"),
    assigneeId: seed.assignee ?? null,
    reporterId: seed.reporter ?? state.currentAccountId,
    labels: seed.labels ?? [],
    created,
    updated,
    resolutionDate: status.category === "done" ? updated : null,
  };
  state.issues.push(issue);
  for (const comment of seed.comments ?? []) {
    const at = new Date(comment.created ?? updated);
    state.comments.push({
      id: String(state.nextCommentId++),
      issueKey: issue.key,
      authorId: comment.author ?? state.currentAccountId,
      body: typeof comment.body === "string" ? textToAdf(comment.body) : comment.body,
      created: at,
      updated: at,
    });
  }
  return issue;
}

export function nextNumber(state: FakeJiraState, projectKey: string): number {
  const numbers = state.issues
    .filter((i) => i.projectKey === projectKey)
    .map((i) => Number(i.key.split("-")[1] ?? 0));
  return Math.max(0, ...numbers) + 1;
}

function pick(list: readonly { name: string }[], name: string, what: string): string {
  const found = list.find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!found) throw new Error(`Unknown ${what} "${name}"; use one of ${list.map((x) => x.name).join(", ")}.`);
  return found.name;
}
