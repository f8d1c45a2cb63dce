import type { Version3Client } from "jira.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, startFakeJiraWithClient } from "../test/client.js";
import { adfToText, textToAdf } from "./adf.js";
import type { FakeJira } from "./server.js";

let jira: FakeJira;
let client: Version3Client;

beforeAll(async () => {
  ({ jira, client } = await startFakeJiraWithClient());
});
afterAll(() => jira.close());

describe("issues with the real jira.js client", () => {
  it("gets an issue by key with all fields, description in ADF and its comments", async () => {
    const issue = await client.issues.getIssue({ issueIdOrKey: "PLAT-1" });
    expect(issue.key).toBe("PLAT-1");
    expect(issue.fields.summary).toBe("Upgrade EKS cluster to 1.30");
    expect(issue.fields.status.name).toBe("In Progress");
    expect(issue.fields.status.statusCategory?.key).toBe("indeterminate");
    expect(issue.fields.assignee?.displayName).toBe("Alice Nguyen");
    expect(issue.fields.project.key).toBe("PLAT");
    expect(issue.fields.created).toMatch(/^2025-03-03T09:00:00\.000\+0000$/);
    expect(adfToText(issue.fields.description as never)).toContain("Upgrade both before end of support.");
    expect(issue.fields.comment.comments[0]?.author?.displayName).toBe("Bob Martins");
  });

  it("answers 404 in Jira's shape for an unknown issue", async () => {
    const error = await failure(client.issues.getIssue({ issueIdOrKey: "PLAT-999" }));
    expect(error.status).toBe(404);
    expect((error.response as { data: unknown }).data).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
  });

  it("creates an issue that a later search finds", async () => {
    const created = await client.issues.createIssue({
      fields: {
        project: { key: "OPS" },
        summary: "Certificate for api.example.com expires in 7 days",
        issuetype: { name: "Bug" },
        priority: { name: "High" },
        description: textToAdf("Renew via cert-manager."),
        labels: ["tls"],
      },
    });
    expect(created.key).toBe("OPS-3");
    expect(created.self).toBe(`${jira.url}/rest/api/3/issue/${created.id}`);

    const found = await client.issueSearch.searchForIssuesUsingJqlEnhancedSearch({
      jql: 'project = OPS AND text ~ "certificate" ORDER BY created DESC',
      fields: ["summary", "status", "reporter", "labels"],
    });
    expect(found.issues?.map((i) => i.key)).toEqual(["OPS-3"]);
    expect(found.issues?.[0]?.fields.status?.name).toBe("To Do");
    expect(found.issues?.[0]?.fields.reporter?.emailAddress).toBe(jira.email);
    expect(jira.issues.find((i) => i.key === "OPS-3")?.labels).toEqual(["tls"]);
  });

  it("rejects a create without project, summary or issue type with 400 field errors", async () => {
    const error = await failure(client.issues.createIssue({ fields: {} as never }));
    expect(error.status).toBe(400);
    const body = (error.response as { data: { errors: Record<string, string> } }).data;
    expect(Object.keys(body.errors).sort()).toEqual(["issuetype", "project", "summary"]);

    // jira.js wraps a plain-string description in ADF itself; a raw non-ADF value is what Jira refuses.
    const raw = await failure(
      client.sendRequest(
        {
          url: "/rest/api/3/issue",
          method: "POST",
          data: {
            fields: {
              project: { key: "PLAT" },
              summary: "x",
              issuetype: { name: "Task" },
              description: "plain",
            },
          },
        },
        undefined as never,
      ),
    );
    expect(raw.status).toBe(400);
    expect((raw.response as { data: { errors: Record<string, string> } }).data.errors.description).toMatch(
      /Atlassian Document/,
    );
  });

  it("adds an ADF comment that the issue then shows", async () => {
    const comment = await client.issueComments.addComment({
      issueIdOrKey: "PLAT-2",
      comment: textToAdf("Reproduced on main.\nLooks like a DNS timeout."),
    });
    expect(comment.author?.emailAddress).toBe(jira.email);
    expect(comment.body).toEqual(textToAdf("Reproduced on main.\nLooks like a DNS timeout."));
    const issue = await client.issues.getIssue({ issueIdOrKey: "PLAT-2", fields: ["comment"] });
    expect(issue.fields.comment.total).toBe(1);
    expect(jira.comments.filter((c) => c.issueKey === "PLAT-2")).toHaveLength(1);

    const missing = await failure(client.issueComments.addComment({ issueIdOrKey: "NOPE-1", comment: "hi" }));
    expect(missing.status).toBe(404);
  });

  it("lists transitions and performs one, moving the issue and recording it", async () => {
    const { transitions } = await client.issues.getTransitions({ issueIdOrKey: "OPS-1" });
    expect(transitions?.map((t) => t.name)).toEqual(["In Progress", "In Review", "Done"]);
    const done = transitions?.find((t) => t.name === "Done");
    expect(done?.to?.statusCategory?.key).toBe("done");

    await client.issues.doTransition({ issueIdOrKey: "OPS-1", transition: { id: done?.id ?? "" } });
    const issue = await client.issues.getIssue({
      issueIdOrKey: "OPS-1",
      fields: ["status", "resolutiondate"],
    });
    expect(issue.fields.status.name).toBe("Done");
    expect(issue.fields.resolutiondate).toBeTruthy();
    expect(jira.transitions.at(-1)).toMatchObject({
      issueKey: "OPS-1",
      from: "To Do",
      to: "Done",
      transitionId: "41",
    });

    const invalid = await failure(
      client.issues.doTransition({ issueIdOrKey: "OPS-1", transition: { id: "41" } }),
    );
    expect(invalid.status).toBe(400);
  });
});
