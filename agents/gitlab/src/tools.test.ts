import { describe, expect, it } from "vitest";
import type { GitLabConnection } from "./client.js";
import { gitLabTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = gitLabTools({} as GitLabConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("GitLab tools name the project a call acts on", () => {
  it("names the project's path in lower case (GitLab's routes ignore case) and its top-level group", () => {
    const deploy = { project: "platform/infra/deploy-tools", group: "platform" };
    expect(resourceOf("list_merge_requests", { project: "Platform/Infra/Deploy-Tools" })).toEqual(deploy);
    expect(resourceOf("list_pipelines", { project: "platform/infra/deploy-tools" })).toEqual(deploy);
    expect(
      resourceOf("create_merge_request", {
        project: "platform/infra/deploy-tools",
        source_branch: "fix",
        title: "t",
      }),
    ).toEqual(deploy);
    expect(resourceOf("create_issue", { project: "platform/infra/deploy-tools", title: "t" })).toEqual(
      deploy,
    );
    expect(resourceOf("retry_pipeline", { project: "platform/infra/deploy-tools", pipeline_id: 7 })).toEqual(
      deploy,
    );
  });

  it("names a project given by numeric id by that id only, and nothing for the project list", () => {
    expect(resourceOf("list_pipelines", { project: "42" })).toEqual({ project: "42" });
    expect(resourceOf("list_projects", {})).toBeUndefined();
  });
});
