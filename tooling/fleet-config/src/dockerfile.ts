import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_NODE_ARGS } from "@switchboard/contract";

export interface DockerfileStage {
  name: string;
  /** ARG defaults declared in the stage. */
  args: Map<string, string>;
  /** ENV values set in the stage. */
  env: Map<string, string>;
  /** RUN commands, continuation lines joined, `--mount=…` flags removed. */
  runs: string[];
  instructions: Array<{ keyword: string; text: string }>;
}

/** The Dockerfile's stages in order (instructions with `\` continuations joined; comments dropped). */
export function readDockerfile(repoRoot: string): DockerfileStage[] {
  const text = readFileSync(join(repoRoot, "Dockerfile"), "utf8");
  const logical: string[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) continue;
    if (line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push((pending + line).trim());
    pending = "";
  }
  const stages: DockerfileStage[] = [];
  for (const instruction of logical) {
    const [keyword = "", ...rest] = instruction.split(/\s+/);
    const body = rest.join(" ");
    const upper = keyword.toUpperCase();
    if (upper === "FROM") {
      stages.push({
        name: /\bAS\s+(\S+)/i.exec(body)?.[1] ?? String(stages.length),
        args: new Map(),
        env: new Map(),
        runs: [],
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) continue;
    stage.instructions.push({ keyword: upper, text: body });
    if (upper === "ARG") {
      const [name = "", value = ""] = body.split("=");
      stage.args.set(name, value.replace(/^"|"$/g, ""));
    } else if (upper === "ENV") {
      for (const pair of body.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) {
        stage.env.set(pair[1] ?? "", (pair[2] ?? "").replace(/^"|"$/g, ""));
      }
    } else if (upper === "RUN") {
      stage.runs.push(body.replace(/^(--[a-z]+=\S+\s+)+/, ""));
    }
  }
  return stages;
}

/** Static checks of the Dockerfile: pinned Node.js and pnpm, legacy deploy (not offline), non-root runtime, the right CMD (with AGENT_NODE_ARGS). */
export function checkDockerfile(repoRoot: string): string[] {
  if (!existsSync(join(repoRoot, "Dockerfile"))) return ["Dockerfile is missing."];
  const problems: string[] = [];
  const stages = readDockerfile(repoRoot);
  const build = stages.find((stage) => stage.name === "build");
  const runtime = stages.at(-1);
  const { packageManager = "", engines = {} } = JSON.parse(
    readFileSync(join(repoRoot, "package.json"), "utf8"),
  ) as { packageManager?: string; engines?: { node?: string } };
  if (!build) return ["Dockerfile: no stage named build."];
  // The image runs the Node.js release that package.json pins (scripts/run.mjs brings the same one).
  const nodeImage = /^ARG NODE_IMAGE=(\S+)/m.exec(readFileSync(join(repoRoot, "Dockerfile"), "utf8"))?.[1];
  if (nodeImage !== `node:${engines.node}-slim`) {
    problems.push(
      `Dockerfile: ARG NODE_IMAGE=${nodeImage} differs from package.json engines.node ${engines.node} (use node:${engines.node}-slim).`,
    );
  }
  const pnpmVersion = build.args.get("PNPM_VERSION");
  if (`pnpm@${pnpmVersion}` !== packageManager) {
    problems.push(
      `Dockerfile: ARG PNPM_VERSION=${pnpmVersion} differs from package.json packageManager ${packageManager}.`,
    );
  }
  if (!build.args.has("AGENT"))
    problems.push("Dockerfile: the build stage needs ARG AGENT (a folder under agents/).");
  if (!build.runs.some((run) => /pnpm install [^&]*--frozen-lockfile/.test(run))) {
    problems.push("Dockerfile: install with pnpm install --frozen-lockfile (the lockfile decides versions).");
  }
  if (!build.runs.some((run) => /pnpm .*deploy .*--legacy .*--prod/.test(run))) {
    problems.push(
      "Dockerfile: deploy with pnpm deploy --legacy --prod (pnpm 10 needs --legacy without injected workspace packages).",
    );
  }
  // A legacy deploy resolves dependencies again: it needs package metadata, which pnpm fetch and a
  // frozen-lockfile install never store, so --offline passes only where an earlier install left some.
  const offlineLegacyDeploy = (command: string) =>
    /\bpnpm\b.*\sdeploy\s/.test(command) &&
    /\s--legacy(?=\s|$)/.test(command) &&
    /\s--offline(?=\s|$)/.test(command);
  if (build.runs.some((run) => run.split(/&&|\|\||[;|]/).some(offlineLegacyDeploy))) {
    problems.push(
      "Dockerfile: pnpm deploy --legacy --offline fails in a clean build (ERR_PNPM_NO_OFFLINE_META: pnpm fetch stores no package metadata); use --prefer-offline.",
    );
  }
  if (runtime === build || !runtime) problems.push("Dockerfile: ship a separate runtime stage.");
  else {
    const user = runtime.instructions.filter((item) => item.keyword === "USER").at(-1)?.text;
    if (!user || user === "root" || user === "0")
      problems.push("Dockerfile: the runtime stage must run as a non-root USER.");
    // The agent's node options (AGENT_NODE_ARGS), as the fleet runner and the tests start agents.
    const expected = JSON.stringify(["node", ...AGENT_NODE_ARGS, "dist/index.js"]).replaceAll('","', '", "');
    const cmd = runtime.instructions.find((item) => item.keyword === "CMD")?.text;
    if (cmd !== expected)
      problems.push(
        `Dockerfile: CMD ${expected} in the runtime stage (node's options from AGENT_NODE_ARGS in packages/contract).`,
      );
    if (!runtime.instructions.some((item) => item.keyword === "EXPOSE"))
      problems.push("Dockerfile: EXPOSE the agent's port.");
  }
  return problems;
}
