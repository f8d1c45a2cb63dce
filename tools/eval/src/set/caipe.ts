import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import type { EvalCase } from "../case.js";
import { evalInputError } from "../errors.js";
import type { LoadedSet } from "./load.js";
import { SUPERVISOR } from "./load.js";

/**
 * The CAIPE commit whose datasets `caipe:` sets read: the 0.5.x line the interop tests pin
 * (testing/test-caipe's CAIPE_COMMIT; a unit test keeps the two equal).
 */
export const CAIPE_EVALS_COMMIT = "e9d5c419114784de55f10d8a37a720ec6aa4eba6";

/** Where CAIPE's files are read: an exported tree, or a git directory holding the pinned commit. */
export type CaipeSource = { kind: "tree"; dir: string } | { kind: "git"; gitDir: string; commit: string };

/** `caipe:single_agent`, `caipe:multi_agent`, `caipe:strict_match` (every agent's), `caipe:strict_match/<agent>`. */
export const CAIPE_SETS = ["single_agent", "multi_agent", "strict_match"] as const;

const PROMPTS = "evals/datasets";
const AGENTS = "ai_platform_engineering/agents";
/** Scaffolding CAIPE ships beside its agents, not agents: their datasets test nothing a fleet runs. */
const NOT_AGENTS = new Set(["template", "template-claude-agent-sdk"]);

/**
 * CAIPE's agent names as Switchboard's: the supervisor's tool names (`github_tools_agent`), the
 * strict-match graph nodes (`agent_jira`) and CAIPE's package folders all come down to the agent.
 */
export function caipeAgentName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^agent_/, "")
    .replace(/_tools_agent$|_agent$/, "")
    .replaceAll("_", "-");
}

/** CAIPE's source from CAIPE_SOURCE_DIR (a tree) or CAIPE_GIT_DIR (a clone with the pinned commit). */
export function caipeSource(env: NodeJS.ProcessEnv): CaipeSource {
  const tree = env.CAIPE_SOURCE_DIR?.trim();
  if (tree) {
    if (!existsSync(join(tree, PROMPTS)))
      throw evalInputError(
        `CAIPE_SOURCE_DIR=${tree} holds no ${PROMPTS}: point it at a tree of cnoe-io/ai-platform-engineering.`,
      );
    return { kind: "tree", dir: tree };
  }
  const gitDir = env.CAIPE_GIT_DIR?.trim();
  if (!gitDir)
    throw evalInputError(
      `caipe: sets read CAIPE's repository: set CAIPE_GIT_DIR to a clone of cnoe-io/ai-platform-engineering (holding commit ${CAIPE_EVALS_COMMIT.slice(0, 9)}) or CAIPE_SOURCE_DIR to an exported tree.`,
    );
  try {
    execFileSync("git", ["-C", gitDir, "cat-file", "-e", `${CAIPE_EVALS_COMMIT}^{commit}`], {
      stdio: "ignore",
    });
  } catch {
    throw evalInputError(
      `CAIPE_GIT_DIR=${gitDir} does not hold CAIPE commit ${CAIPE_EVALS_COMMIT.slice(0, 9)}: fetch it there (git fetch origin ${CAIPE_EVALS_COMMIT}).`,
    );
  }
  return { kind: "git", gitDir, commit: CAIPE_EVALS_COMMIT };
}

function readCaipe(source: CaipeSource, path: string): string {
  if (source.kind === "tree") return readFileSync(join(source.dir, path), "utf8");
  return execFileSync("git", ["-C", source.gitDir, "show", `${source.commit}:${path}`], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
}

function listCaipeAgents(source: CaipeSource): string[] {
  const names =
    source.kind === "tree"
      ? readdirSync(join(source.dir, AGENTS))
      : execFileSync("git", ["-C", source.gitDir, "ls-tree", "--name-only", `${source.commit}:${AGENTS}`], {
          encoding: "utf8",
        })
          .split("\n")
          .filter(Boolean);
  return names.filter((name) => !NOT_AGENTS.has(name) && hasFile(source, strictMatchPath(name))).sort();
}

function hasFile(source: CaipeSource, path: string): boolean {
  if (source.kind === "tree") return existsSync(join(source.dir, path));
  try {
    execFileSync("git", ["-C", source.gitDir, "cat-file", "-e", `${source.commit}:${path}`], {
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
}

const strictMatchPath = (agent: string) => `${AGENTS}/${agent}/evals/strict_match/strict_match_dataset.yaml`;

// CAIPE's own models (evals/models/dataset.py), read as CAIPE reads them: extra keys allowed.
const PromptDataset = z.object({
  name: z.string(),
  prompts: z.array(
    z.object({
      id: z.string(),
      messages: z.array(z.object({ role: z.string(), content: z.string() })).min(1),
      expected_output: z.string().nullish(),
      expected_agents: z.array(z.string()),
      expected_behavior: z.string(),
    }),
  ),
});

const StrictMatchDataset = z.object({
  tests: z.record(
    z.string(),
    z.object({
      input: z.string(),
      reference_trajectory: z.record(z.string(), z.string()),
      metadata: z.object({ comments: z.string().optional() }).optional(),
    }),
  ),
});

/** A `caipe:<name>` set, read unchanged from CAIPE's repository. */
export function loadCaipeSet(spec: string, source: CaipeSource): LoadedSet {
  const [kind, agent] = spec.split("/");
  if (kind === "single_agent" || kind === "multi_agent") {
    const path = `${PROMPTS}/${kind}.yaml`;
    return promptSet(readCaipe(source, path), path);
  }
  if (kind === "strict_match") {
    const agents = agent ? [agent] : listCaipeAgents(source);
    const cases = agents.flatMap((name) => {
      const path = strictMatchPath(name);
      if (!hasFile(source, path))
        throw evalInputError(`CAIPE has no strict-match dataset for "${name}" (looked for ${path}).`);
      return strictMatchCases(readCaipe(source, path), path, name);
    });
    return { name: agent ? `caipe-strict_match-${agent}` : "caipe-strict_match", cases };
  }
  throw evalInputError(
    `Unknown CAIPE set "caipe:${spec}": use caipe:single_agent, caipe:multi_agent, caipe:strict_match or caipe:strict_match/<agent>.`,
  );
}

/** CAIPE's prompt datasets: expected agents as routing, expected behaviour as the judge's criterion. */
export function promptSet(text: string, path: string): LoadedSet {
  const data = PromptDataset.parse(parse(text));
  const set = `caipe-${data.name}`;
  return {
    name: set,
    cases: data.prompts.map(
      (prompt): EvalCase => ({
        key: `${set}/${prompt.id}`,
        id: prompt.id,
        set,
        messages: prompt.messages.filter((m) => m.role === "user").map((m) => m.content),
        target: SUPERVISOR,
        expect: {
          // CAIPE's routing evaluator asks whether the supervisor reached the expected agents.
          agents: { alternatives: [prompt.expected_agents.map(caipeAgentName)], match: "any-order" },
          rubric: [prompt.expected_behavior.trim()],
          ...(prompt.expected_output ? { reference: prompt.expected_output } : {}),
        },
        origin: `CAIPE ${path}#${prompt.id}`,
      }),
    ),
  };
}

/**
 * An agent's strict-match dataset: each `reference_trajectory` solution (`__start__;agent_jira`) is
 * one acceptable sequence of agents; CAIPE ran the agent's graph alone, Switchboard asks the
 * supervisor, so the same case also checks the request reaches that agent and no other.
 */
export function strictMatchCases(text: string, path: string, agent: string): EvalCase[] {
  const data = StrictMatchDataset.parse(parse(text));
  const set = `caipe-strict_match-${caipeAgentName(agent)}`;
  return Object.entries(data.tests).map(([id, test]) => ({
    key: `${set}/${id}`,
    id,
    set,
    messages: [test.input.trim()],
    target: SUPERVISOR,
    expect: {
      agents: {
        alternatives: Object.values(test.reference_trajectory).map((solution) =>
          solution
            .replaceAll("\n", "")
            .split(";")
            .map((node) => node.trim())
            .filter((node) => node && node !== "__start__" && node !== "__end__")
            .map(caipeAgentName),
        ),
        match: "exact",
      },
      ...(test.metadata?.comments ? { reference: test.metadata.comments.trim() } : {}),
    },
    origin: `CAIPE ${path}#${id}`,
  }));
}
