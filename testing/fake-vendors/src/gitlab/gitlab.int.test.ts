import { GitbeakerRequestError, Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitLab, startFakeGitLab } from "./index.js";

// The real @gitbeaker/rest client against the fake: what it sends and what it gets back.
describe("fake GitLab", () => {
  let gl: FakeGitLab;
  let api: InstanceType<typeof Gitlab>;

  beforeAll(async () => {
    gl = await startFakeGitLab();
    api = new Gitlab({ host: gl.url, token: gl.token });
  });
  afterAll(() => gl.close());

  it("finds projects and lists open merge requests by the project's path", async () => {
    const projects = await api.Projects.all({ search: "deploy", perPage: 20, maxPages: 1 });
    expect(projects.map((one) => one.path_with_namespace)).toEqual(["platform/deploy-tools"]);
    const open = await api.MergeRequests.all({ projectId: "platform/deploy-tools", state: "opened" });
    expect(open.map((one) => `!${one.iid} ${one.title}`)).toEqual(["!1 Lint Helm charts in CI"]);
    const request = gl.requests.find((one) => one.path.endsWith("/merge_requests"));
    expect(request?.path).toBe("/api/v4/projects/platform%2Fdeploy-tools/merge_requests");
  });

  it("refuses a wrong token and an unknown project with GitLab's messages", async () => {
    const stranger = new Gitlab({ host: gl.url, token: "wrong" });
    await expect(stranger.Projects.show(11)).rejects.toThrow("401 Unauthorized");
    await expect(api.Projects.show("platform/nope")).rejects.toBeInstanceOf(GitbeakerRequestError);
    await expect(api.Projects.show("platform/nope")).rejects.toThrow("404 Project Not Found");
  });

  it("opens a merge request once per source branch, and an issue", async () => {
    const mr = await api.MergeRequests.create(
      "platform/deploy-tools",
      "fix/timeout",
      "main",
      "Raise the deploy timeout",
    );
    expect(mr).toMatchObject({ iid: 3, state: "opened", source_branch: "fix/timeout" });
    await expect(
      api.MergeRequests.create("platform/deploy-tools", "fix/timeout", "main", "Again"),
    ).rejects.toThrow("Another open merge request already exists for this source branch: !3");
    await expect(api.MergeRequests.create(11, "no/such-branch", "main", "x")).rejects.toThrow(
      "404 Branch Not Found",
    );
    const issue = await api.Issues.create(12, "Drift in prod VPC", { labels: "infra,drift" });
    expect(issue).toMatchObject({ iid: 1, labels: ["infra", "drift"] });
  });

  it("retries a failed pipeline but not a successful one", async () => {
    const failed = await api.Pipelines.all("platform/deploy-tools", { status: "failed" });
    expect(failed.map((one) => one.id)).toEqual([903]);
    const retried = await api.Pipelines.retry("platform/deploy-tools", 903);
    expect(retried.status).toBe("running");
    await expect(api.Pipelines.retry("platform/deploy-tools", 902)).rejects.toThrow("403 Forbidden");
    expect(gl.changes.map((one) => one.action)).toEqual([
      "create_merge_request",
      "create_issue",
      "retry_pipeline",
    ]);
  });
});
