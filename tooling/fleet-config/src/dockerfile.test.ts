import { AGENT_NODE_ARGS } from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import { fleetFixture, repoRoot } from "../test/fixture.js";
import { checkDockerfile, readDockerfile } from "./dockerfile.js";

describe("Dockerfile", () => {
  it("passes the static checks: pinned pnpm, legacy deploy, non-root runtime, node <AGENT_NODE_ARGS> dist/index.js", () => {
    expect(checkDockerfile(repoRoot)).toEqual([]);
  });

  it("builds in a build stage and ships a separate runtime stage", () => {
    const stages = readDockerfile(repoRoot);
    expect(stages.map((stage) => stage.name)).toEqual(["build", "runtime"]);
    expect(stages[0]?.runs.some((run) => run.includes("turbo run build"))).toBe(true);
  });

  it("reports a deploy that only works offline on a machine whose pnpm metadata cache is warm", () => {
    const fixture = fleetFixture();
    try {
      fixture.edit("Dockerfile", (text) => {
        const edited = text.replace(
          /deploy --legacy --prod --prefer-offline /,
          "deploy --legacy --prod --offline ",
        );
        expect(edited).not.toBe(text);
        return edited;
      });
      expect(checkDockerfile(fixture.root).join("\n")).toMatch(
        /deploy --legacy --offline fails in a clean build/,
      );
    } finally {
      fixture.cleanup();
    }
  });

  it("reports a CMD whose node options drifted from AGENT_NODE_ARGS (the fleet runner's)", () => {
    const fixture = fleetFixture();
    try {
      fixture.edit("Dockerfile", (text) => {
        const edited = text.replace(/^CMD .*$/m, 'CMD ["node", "--max-semi-space-size=64", "dist/index.js"]');
        expect(edited).not.toBe(text);
        return edited;
      });
      expect(checkDockerfile(fixture.root).join("\n")).toContain(
        `CMD ${JSON.stringify(["node", ...AGENT_NODE_ARGS, "dist/index.js"]).replaceAll('","', '", "')}`,
      );
    } finally {
      fixture.cleanup();
    }
  });

  it("reports a Node.js image that drifted from package.json's engines.node", () => {
    const fixture = fleetFixture();
    try {
      fixture.edit("Dockerfile", (text) => text.replace(/ARG NODE_IMAGE=\S+/, "ARG NODE_IMAGE=node:20-slim"));
      expect(checkDockerfile(fixture.root).join("\n")).toMatch(
        /NODE_IMAGE=node:20-slim differs from package\.json engines\.node/,
      );
    } finally {
      fixture.cleanup();
    }
  });

  it("reports a pnpm version that drifted from package.json", () => {
    const fixture = fleetFixture();
    try {
      fixture.edit("Dockerfile", (text) => text.replace(/ARG PNPM_VERSION=\S+/, "ARG PNPM_VERSION=9.0.0"));
      expect(checkDockerfile(fixture.root).join("\n")).toMatch(
        /PNPM_VERSION=9\.0\.0 differs from package\.json/,
      );
    } finally {
      fixture.cleanup();
    }
  });
});
