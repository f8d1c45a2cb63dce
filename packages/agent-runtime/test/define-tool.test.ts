import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../src/tools/define-tool.js";

const createIssue = defineTool({
  name: "create_issue",
  description: "Create an issue",
  schema: z.object({ project: z.string(), summary: z.string().min(1), type: z.string().default("Task") }),
  run: ({ project, summary, type }) => `Created a ${type} in ${project}: ${summary}`,
  confirm: ({ project, summary, type }) => `Create a ${type} in ${project}: "${summary}".`,
});

describe("a tool declared once", () => {
  it("runs with its arguments checked and defaults filled", async () => {
    expect(await createIssue.tool.invoke({ project: "PLAT", summary: "Rotate keys" })).toBe(
      "Created a Task in PLAT: Rotate keys",
    );
    await expect(createIssue.tool.invoke({ project: "PLAT", summary: "" })).rejects.toThrow();
  });

  it("asks about a change in words made from the validated arguments", () => {
    expect(createIssue.confirm?.({ project: "PLAT", summary: "Rotate keys" })).toBe(
      'Create a Task in PLAT: "Rotate keys".',
    );
  });

  it("asks nothing about arguments the tool will refuse anyway", () => {
    expect(createIssue.confirm?.({ project: "PLAT" })).toBeUndefined();
  });

  it("names what a call acts on from the arguments it will run with", () => {
    const comment = defineTool({
      name: "add_comment",
      description: "Comment on a repository's issue",
      schema: z.object({ owner: z.string(), repo: z.string(), body: z.string().min(1) }),
      resource: ({ owner, repo }) => ({
        owner: owner.toLowerCase(),
        repository: `${owner}/${repo}`.toLowerCase(),
      }),
      confirm: ({ owner, repo }) => `Comment on ${owner}/${repo}.`,
      run: () => "done",
    });
    expect(comment.resource?.({ owner: "Acme", repo: "API", body: "hi" })).toEqual({
      owner: "acme",
      repository: "acme/api",
    });
    expect(comment.resource?.({ owner: "Acme" })).toBeUndefined();
  });

  it("is a read when it has no question", () => {
    const read = defineTool({
      name: "list_projects",
      description: "List projects",
      schema: z.object({}),
      run: () => "PLAT",
    });
    expect(read.confirm).toBeUndefined();
  });
});
