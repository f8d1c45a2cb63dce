import { Octokit } from "octokit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, startFakeGithubWithOctokit } from "../test/client.js";
import type { FakeGithub } from "./server.js";

let github: FakeGithub;
let octokit: Octokit;

beforeAll(async () => {
  ({ github, octokit } = await startFakeGithubWithOctokit());
});
afterAll(() => github.close());

describe("users and repositories with the real Octokit", () => {
  it("GET /user returns the token's user with profile fields", async () => {
    const { data, headers } = await octokit.rest.users.getAuthenticated();
    expect(data.login).toBe("octo-dev");
    expect(data.name).toBe("Octo Dev");
    expect(data.html_url).toBe(`${github.webUrl}/octo-dev`);
    expect(headers["x-ratelimit-remaining"]).toBe("4999");
    expect(github.requests.at(-1)).toMatchObject({ path: "/api/v3/user", auth: "token", status: 200 });
  });

  it("GET /user/repos lists owned and org repositories, but not others' private ones", async () => {
    const { data } = await octokit.rest.repos.listForAuthenticatedUser();
    expect(data.map((r) => r.full_name)).toEqual(["acme/infra", "acme/platform-api", "octo-dev/dotfiles"]);
    const owned = await octokit.rest.repos.listForAuthenticatedUser({ type: "owner" });
    expect(owned.data.map((r) => r.full_name)).toEqual(["octo-dev/dotfiles"]);
  });

  it("GET /orgs/{org}/repos lists the organization's repositories, newest first", async () => {
    const { data } = await octokit.rest.repos.listForOrg({ org: "acme" });
    expect(data.map((r) => r.name)).toEqual(["platform-api", "infra"]);
    expect(data[0]?.private).toBe(true);
    expect(data[0]?.owner.type).toBe("Organization");
    const missing = await failure(octokit.rest.repos.listForOrg({ org: "no-such-org" }));
    expect(missing.status).toBe(404);
  });

  it("GET /repos/{owner}/{repo} returns the repository, and 404 in GitHub's shape when hidden or absent", async () => {
    const { data } = await octokit.rest.repos.get({ owner: "acme", repo: "platform-api" });
    expect(data.default_branch).toBe("main");
    expect(data.language).toBe("TypeScript");
    expect(data.open_issues_count).toBe(3);
    expect(data.permissions?.push).toBe(true);

    const hidden = await failure(octokit.rest.repos.get({ owner: "outsider", repo: "secret-plans" }));
    expect(hidden.status).toBe(404);
    expect(hidden.response?.data).toMatchObject({
      message: "Not Found",
      documentation_url: expect.any(String),
    });
  });

  it("refuses a bad token with 401 Bad credentials", async () => {
    const wrong = new Octokit({ auth: "ghp_wrong", baseUrl: github.url });
    const error = await failure(wrong.rest.users.getAuthenticated());
    expect(error.status).toBe(401);
    expect(error.response?.data).toMatchObject({
      message: "Bad credentials",
      documentation_url: expect.any(String),
    });

    const anonymous = new Octokit({ baseUrl: github.url });
    const none = await failure(anonymous.rest.repos.get({ owner: "acme", repo: "infra" }));
    expect(none.status).toBe(401);
    expect(github.requests.at(-1)?.auth).toBe("none");
  });

  it("accepts a Bearer token as well as `token`", async () => {
    const response = await fetch(`${github.url}/user`, {
      headers: { authorization: `Bearer ${github.token}` },
    });
    expect(response.status).toBe(200);
    expect(github.requests.at(-1)?.auth).toBe("bearer");
  });
});
