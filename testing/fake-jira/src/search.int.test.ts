import { HttpException, type Version3Client } from "jira.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeJiraWithClient } from "../test/client.js";
import type { FakeJira } from "./server.js";

let jira: FakeJira;
let client: Version3Client;

beforeAll(async () => {
  ({ jira, client } = await startFakeJiraWithClient());
});
afterAll(() => jira.close());

describe("search with the real jira.js client", () => {
  it("enhanced GET /search/jql returns the named fields of matching issues", async () => {
    const result = await client.issueSearch.searchForIssuesUsingJqlEnhancedSearch({
      jql: 'project = PLAT AND status = "To Do"',
      fields: ["summary", "status", "assignee", "priority"],
    });
    expect((result as { isLast?: boolean }).isLast).toBe(true);
    expect(result.issues?.map((i) => i.key)).toEqual(["PLAT-2"]);
    const fields = result.issues?.[0]?.fields;
    expect(fields?.summary).toBe("CI pipeline flaky on integration tests");
    expect(fields?.status?.statusCategory?.key).toBe("new");
    expect(fields?.assignee).toBeNull();
    expect(fields?.priority?.name).toBe("Medium");
    expect(fields?.description).toBeUndefined();
  });

  it("enhanced search returns only ids unless fields are asked for, as Jira Cloud does", async () => {
    const result = await client.issueSearch.searchForIssuesUsingJqlEnhancedSearch({ jql: "project = OPS" });
    expect(result.issues).toHaveLength(2);
    expect(Object.keys(result.issues?.[0] ?? {})).toEqual(["id"]);
  });

  it("enhanced POST /search/jql pages with nextPageToken", async () => {
    const seen: string[] = [];
    let nextPageToken: string | undefined;
    let pages = 0;
    do {
      const page = await client.issueSearch.searchForIssuesUsingJqlEnhancedSearchPost({
        jql: "project = PLAT ORDER BY created DESC",
        fields: ["summary", "created"],
        maxResults: 3,
        nextPageToken,
      });
      pages++;
      seen.push(...(page.issues ?? []).map((i) => i.key ?? ""));
      nextPageToken = page.nextPageToken;
      expect((page as { isLast?: boolean }).isLast).toBe(nextPageToken === undefined);
    } while (nextPageToken);
    expect(pages).toBe(2);
    expect(seen).toEqual(["PLAT-4", "PLAT-2", "PLAT-1", "PLAT-3"]);
  });

  it("legacy GET and POST /search return startAt/total paging and navigable fields", async () => {
    const get = await client.issueSearch.searchForIssuesUsingJql({
      jql: 'assignee = "Bob Martins" ORDER BY key ASC',
      maxResults: 1,
    });
    expect(get.total).toBe(2);
    expect(get.issues?.map((i) => i.key)).toEqual(["PLAT-4"]);
    expect(get.issues?.[0]?.fields.issuetype?.name).toBe("Task");
    expect(get.issues?.[0]?.fields.comment).toBeUndefined();

    const post = await client.issueSearch.searchForIssuesUsingJqlPost({
      jql: 'text ~ "WAL volume"',
      fields: ["summary", "description"],
    });
    expect(post.issues?.map((i) => i.key)).toEqual(["OPS-1"]);
    expect(post.issues?.[0]?.fields.description?.type).toBe("doc");
  });

  it("rejects bad and unbounded JQL with 400 in Jira's error shape", async () => {
    const bad = await client.issueSearch
      .searchForIssuesUsingJqlEnhancedSearch({ jql: "project = NOPE" })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(HttpException);
    expect((bad as HttpException).status).toBe(400);
    expect(jira.requests.at(-1)?.status).toBe(400);

    const unbounded = await client.issueSearch
      .searchForIssuesUsingJqlEnhancedSearch({ jql: "ORDER BY created DESC" })
      .catch((e: unknown) => e as HttpException);
    expect((unbounded as HttpException).status).toBe(400);
    expect(JSON.stringify((unbounded as HttpException).response)).toContain("Unbounded JQL");
  });
});
