import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/fixture.js";
import {
  declaredDependencies,
  TESTING_SCOPE,
  WORKSPACE_FOLDERS,
  workspaceFolders,
  workspacePackages,
} from "./workspace.js";

const packages = workspacePackages(repoRoot);
const shipped = packages.filter(
  ({ folder }) => WORKSPACE_FOLDERS[folder as keyof typeof WORKSPACE_FOLDERS] === "shipped",
);
const IMPORT = /\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** A package's source files that ship: everything under src/ but its tests. */
function shippedSources(dir: string): string[] {
  const src = join(dir, "src");
  return readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|mts|js|mjs)$/.test(file) && !/\.test\.|(^|\/)test\//.test(file))
    .map((file) => join(src, file));
}

describe("the repository layout", () => {
  it("has exactly the top folders that say what ships, each in pnpm-workspace.yaml", () => {
    expect(workspaceFolders(repoRoot).sort()).toEqual(Object.keys(WORKSPACE_FOLDERS).sort());
  });

  it("keeps every fake, test server and suite in testing/, private and in the testing scope", () => {
    const inTestingScope = packages.filter(({ manifest }) => manifest.name?.startsWith(`${TESTING_SCOPE}/`));
    expect(inTestingScope.map(({ path }) => path).sort()).toEqual(
      packages
        .filter(({ folder }) => folder === "testing")
        .map(({ path }) => path)
        .sort(),
    );
    for (const { path, manifest } of inTestingScope) expect(manifest.private, path).toBe(true);
  });

  it("ships no package that needs a testing package at runtime", () => {
    const problems: string[] = [];
    for (const { path, dir, manifest } of shipped) {
      for (const dependency of declaredDependencies(manifest, [
        "dependencies",
        "peerDependencies",
        "optionalDependencies",
      ])) {
        if (dependency.startsWith(`${TESTING_SCOPE}/`)) problems.push(`${path} depends on ${dependency}`);
      }
      for (const file of shippedSources(dir)) {
        for (const [, from, dynamic] of readFileSync(file, "utf8").matchAll(IMPORT)) {
          const specifier = from ?? dynamic ?? "";
          if (specifier.startsWith(`${TESTING_SCOPE}/`))
            problems.push(`${relative(repoRoot, file)} imports ${specifier}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("names every shipped and tooling package in the @switchboard scope", () => {
    const outside = packages
      .filter(({ folder }) => folder !== "testing")
      .filter(({ manifest }) => !manifest.name?.startsWith("@switchboard/"))
      .map(({ path, manifest }) => `${path}: ${manifest.name}`);
    expect(outside).toEqual([]);
  });
});
