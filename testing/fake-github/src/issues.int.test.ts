import type { Octokit } from "octokit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, startFakeGithubWithOctokit } from "../test/client.js";
import type { FakeGithub } from "./server.js";

let github: FakeGithub;
let octokit: Octokit;
const repo = { owner: "acme", repo: "platform-api" };

beforeAll(async () => {
  ({ github, octokit } = await startFakeGithubWithOctokit({ token: "ghp_issues" }));
});
afterAll(() => github.close());

describe("issues with the real Octokit", () => {
  it("lists open issues including pull requests, which carry a pull_request key", async () => {
    const { data } = await octokit.rest.issues.listForRepo(repo);
    expect(data.map((i) => i.number)).toEqual([5, 2, 1]);
    const pr = data.find((i) => i.number === 2);
    expect(pr?.pull_request?.html_url).toBe(`${github.webUrl}/acme/platform-api/pull/2`);
    expect(data.find((i) => i.number === 1)?.pull_request).toBeUndefined();
  });

  it("filters issues by state, labels and assignee", async () => {
    const closedBugs = await octokit.rest.issues.listForRepo({ ...repo, state: "closed", labels: "bug" });
    expect(closedBugs.data.map((i) => i.title)).toEqual(["500 on empty payload"]);
    const mine = await octokit.rest.issues.listForRepo({ ...repo, assignee: "octo-dev" });
    expect(mine.data.map((i) => i.number)).toEqual([5]);
  });

  it("creates an issue that the next list shows first", async () => {
    const { data: created, status } = await octokit.rest.issues.create({
      ...repo,
      title: "Pager fired for p99 latency",
      body: "p99 above 2s for 10 minutes.",
      labels: ["incident"],
      assignees: ["mona"],
    });
    expect(status).toBe(201);
    expect(created.number).toBe(6);
    expect(created.user?.login).toBe("octo-dev");
    expect(created.labels.map((l) => (typeof l === "string" ? l : l.name))).toEqual(["incident"]);
    const { data } = await octokit.rest.issues.listForRepo({ ...repo, labels: "incident" });
    expect(data.map((i) => i.title)).toEqual(["Pager fired for p99 latency"]);
    expect(github.issues.at(-1)).toMatchObject({ repo: "acme/platform-api", number: 6, assignees: ["mona"] });
  });

  it("answers 422 in GitHub's shape for invalid issues", async () => {
    const empty = await failure(octokit.rest.issues.create({ ...repo, title: "  " }));
    expect(empty.status).toBe(422);
    expect(empty.response?.data).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Issue", code: "missing_field", field: "title" }],
    });
    const stranger = await failure(
      octokit.rest.issues.create({ ...repo, title: "x", assignees: ["outsider"] }),
    );
    expect(stranger.response?.data).toMatchObject({
      errors: [{ resource: "Issue", field: "assignees", code: "invalid", value: "outsider" }],
    });
    const noTitle = await failure(octokit.request("POST /repos/{owner}/{repo}/issues", { ...repo } as never));
    expect(noTitle.status).toBe(422);
    expect(noTitle.message).toContain('"title" wasn\'t supplied');
  });

  it("paginates with Link headers so octokit.paginate collects every page", async () => {
    for (let i = 1; i <= 7; i++) github.addIssue({ repo: "acme/infra", title: `Drift in module ${i}` });
    const first = await octokit.rest.issues.listForRepo({ owner: "acme", repo: "infra", per_page: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain(
      `${github.url}/repos/acme/infra/issues?per_page=3&page=3>; rel="last"`,
    );

    const all = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: "acme",
      repo: "infra",
      per_page: 3,
    });
    expect(all).toHaveLength(9);
    expect(new Set(all.map((i) => i.number)).size).toBe(9);
    const pages = github.requests.filter(
      (r) => r.path === "/api/v3/repos/acme/infra/issues" && r.query.per_page === "3",
    );
    expect(pages.map((r) => r.query.page ?? "1")).toEqual(["1", "1", "2", "3"]);
  });
});
