import { describe, expect, it } from "vitest";
import type { GithubConnection } from "./client.js";
import { githubTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = githubTools({} as GithubConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("GitHub tools name the owner and repository a call acts on", () => {
  it("names owner and owner/repo in lower case (GitHub's names ignore case), for reads and changes", () => {
    const acmeApi = { owner: "acme", repository: "acme/platform-api" };
    expect(resourceOf("get_repo", { repo: "Acme/Platform-API" })).toEqual(acmeApi);
    expect(resourceOf("list_pull_requests", { repo: "acme/platform-api" })).toEqual(acmeApi);
    expect(resourceOf("get_pull_request", { repo: "acme/platform-api", number: 3 })).toEqual(acmeApi);
    expect(resourceOf("list_issues", { repo: "acme/platform-api" })).toEqual(acmeApi);
    expect(resourceOf("list_workflow_runs", { repo: "acme/platform-api" })).toEqual(acmeApi);
    expect(resourceOf("create_issue", { repo: "ACME/platform-api", title: "t" })).toEqual(acmeApi);
    expect(resourceOf("create_pull_request", { repo: "acme/Platform-Api", title: "t", head: "fix" })).toEqual(
      acmeApi,
    );
  });

  it("names the owner a listing asks for, and nothing for the token's own repositories", () => {
    expect(resourceOf("list_repos", { owner: "Acme-Payments" })).toEqual({ owner: "acme-payments" });
    expect(resourceOf("list_repos", {})).toEqual({});
  });
});
