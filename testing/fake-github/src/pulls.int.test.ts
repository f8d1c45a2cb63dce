import type { Octokit } from "octokit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, startFakeGithubWithOctokit } from "../test/client.js";
import type { FakeGithub } from "./server.js";

let github: FakeGithub;
let octokit: Octokit;
const repo = { owner: "acme", repo: "platform-api" };

beforeAll(async () => {
  ({ github, octokit } = await startFakeGithubWithOctokit());
});
afterAll(() => github.close());

describe("pull requests and workflow runs with the real Octokit", () => {
  it("lists pull requests by state", async () => {
    const open = await octokit.rest.pulls.list(repo);
    expect(open.data.map((p) => p.title)).toEqual(["Add rate limiting middleware"]);
    expect(open.data[0]?.head.ref).toBe("feature/rate-limit");
    expect(open.data[0]?.base.ref).toBe("main");
    const all = await octokit.rest.pulls.list({ ...repo, state: "all" });
    expect(all.data.map((p) => p.number)).toEqual([2, 4]);
    const closed = await octokit.rest.pulls.list({ ...repo, state: "closed" });
    expect(closed.data.map((p) => p.merged_at)).toEqual(["2025-02-15T10:00:00Z"]);
  });

  it("gets one pull request with merge details, and 404 for an issue number", async () => {
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: 4 });
    expect(data.merged).toBe(true);
    expect(data.merged_by?.login).toBe("octo-dev");
    expect(data.head.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(data.changed_files).toBeGreaterThan(0);
    const notPull = await failure(octokit.rest.pulls.get({ ...repo, pull_number: 1 }));
    expect(notPull.status).toBe(404);
  });

  it("opens a pull request that lists show, and refuses a duplicate or unknown branch with 422", async () => {
    const { data, status } = await octokit.rest.pulls.create({
      ...repo,
      title: "Write audit log actor",
      head: "feature/audit-log",
      base: "main",
      body: "Fixes #5",
      draft: true,
    });
    expect(status).toBe(201);
    expect(data.number).toBe(6);
    expect(data.draft).toBe(true);
    expect(data.html_url).toBe(`${github.webUrl}/acme/platform-api/pull/6`);
    const open = await octokit.rest.pulls.list(repo);
    expect(open.data.map((p) => p.number)).toEqual([6, 2]);

    const duplicate = await failure(
      octokit.rest.pulls.create({ ...repo, title: "again", head: "acme:feature/audit-log", base: "main" }),
    );
    expect(duplicate.status).toBe(422);
    expect(duplicate.response?.data).toMatchObject({
      message: "Validation Failed",
      errors: [
        {
          resource: "PullRequest",
          code: "custom",
          message: "A pull request already exists for acme:feature/audit-log.",
        },
      ],
    });
    const unknown = await failure(
      octokit.rest.pulls.create({ ...repo, title: "x", head: "nope", base: "main" }),
    );
    expect(unknown.response?.data).toMatchObject({
      errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
    });
  });

  it("lists workflow runs newest first, filtered by branch and status, across pages", async () => {
    const { data } = await octokit.rest.actions.listWorkflowRunsForRepo(repo);
    expect(data.total_count).toBe(5);
    expect(data.workflow_runs[0]?.status).toBe("in_progress");
    expect(data.workflow_runs[0]?.conclusion).toBeNull();
    expect(data.workflow_runs[0]?.head_commit?.id).toBe(data.workflow_runs[0]?.head_sha);

    const failed = await octokit.rest.actions.listWorkflowRunsForRepo({ ...repo, status: "failure" });
    expect(failed.data.workflow_runs.map((r) => r.head_branch)).toEqual([
      "feature/rate-limit",
      "fix/flaky-ci",
    ]);
    const branch = await octokit.rest.actions.listWorkflowRunsForRepo({ ...repo, branch: "fix/flaky-ci" });
    expect(branch.data.workflow_runs.map((r) => r.conclusion)).toEqual(["success", "failure"]);

    const all = await octokit.paginate(octokit.rest.actions.listWorkflowRunsForRepo, {
      ...repo,
      per_page: 2,
    });
    expect(all.map((r) => r.id)).toEqual(data.workflow_runs.map((r) => r.id));
  });
});
