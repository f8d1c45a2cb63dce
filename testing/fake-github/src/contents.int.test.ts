import type { Octokit } from "octokit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, startFakeGithubWithOctokit } from "../test/client.js";
import type { FakeGithub } from "./server.js";

let github: FakeGithub;
let octokit: Octokit;

beforeAll(async () => {
  ({ github, octokit } = await startFakeGithubWithOctokit({
    seed: {
      repos: [
        {
          fullName: "acme/handbook",
          private: true,
          files: { "README.md": "# Handbook", "docs/adr/0001-x.md": "# ADR 1" },
          teams: ["platform"],
        },
        { fullName: "outsider/public-notes", files: { "notes.md": "hi" } },
      ],
      issues: [],
      runs: [],
    },
  }));
});
afterAll(() => github.close());

describe("a repository's files and who has access, with the real Octokit", () => {
  it("lists the tree and reads a blob, with git's blob SHAs", async () => {
    const { data } = await octokit.rest.git.getTree({
      owner: "acme",
      repo: "handbook",
      tree_sha: "main",
      recursive: "1",
    });
    expect(data.truncated).toBe(false);
    // In git's byte order, as GitHub lists them.
    expect(data.tree.map((entry) => `${entry.type} ${entry.path}`)).toEqual([
      "blob README.md",
      "tree docs",
      "tree docs/adr",
      "blob docs/adr/0001-x.md",
    ]);
    const readme = data.tree.find((entry) => entry.path === "README.md");
    // `git hash-object` of "# Handbook".
    expect(readme?.sha).toBe("cfee8d18ac731d5bb4851f667ee2b5bd4f26b42f");
    const blob = await octokit.rest.git.getBlob({
      owner: "acme",
      repo: "handbook",
      file_sha: readme?.sha ?? "",
    });
    expect(Buffer.from(blob.data.content, "base64").toString()).toBe("# Handbook");
    const root = await octokit.rest.git.getTree({ owner: "acme", repo: "handbook", tree_sha: "main" });
    expect(root.data.tree.map((entry) => entry.path)).toEqual(["README.md", "docs"]);
    expect(
      (await failure(octokit.rest.git.getTree({ owner: "acme", repo: "handbook", tree_sha: "nope" }))).status,
    ).toBe(404);
  });

  it("lists collaborators and teams, and refuses collaborators without push access as GitHub does", async () => {
    const collaborators = await octokit.rest.repos.listCollaborators({ owner: "acme", repo: "handbook" });
    expect(collaborators.data.map((user) => user.login)).toEqual(["octo-dev", "mona"]);
    const teams = await octokit.rest.repos.listTeams({ owner: "acme", repo: "handbook" });
    expect(teams.data.map((team) => team.slug)).toEqual(["platform"]);
    const refused = await failure(
      octokit.rest.repos.listCollaborators({ owner: "outsider", repo: "public-notes" }),
    );
    expect(refused).toMatchObject({ status: 403 });
  });
});
