import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parse } from "yaml";
import type { z } from "zod";
import type { ArgMatcher, CaseExpectations, EvalCase, ToolCallExpectation } from "../case.js";
import { evalInputError } from "../errors.js";
import { EvalSetSchema, type ToolCallExpectationFile } from "./schema.js";

export const SUPERVISOR = "supervisor";

export interface LoadedSet {
  name: string;
  runs?: number;
  cases: EvalCase[];
}

/** A set file of Switchboard's format: errors name the file, the case and the field to fix. */
export function loadSetFile(path: string): LoadedSet {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw evalInputError(`Cannot read the evaluation set ${path}: ${(error as Error).message}.`);
  }
  return readSet(text, path);
}

export function readSet(text: string, origin: string): LoadedSet {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw evalInputError(`${origin} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = EvalSetSchema.safeParse(raw);
  if (!parsed.success) throw evalInputError(`${origin}: ${describeIssues(raw, parsed.error)}`);
  const set = parsed.data;
  const seen = new Set<string>();
  const cases = set.cases.map((c): EvalCase => {
    if (seen.has(c.id))
      throw evalInputError(`${origin}: case id "${c.id}" appears twice; ids must be unique in a set.`);
    seen.add(c.id);
    const expect: CaseExpectations = {};
    const { agents, tools, answer, rubric } = c.expect;
    if (agents) {
      expect.agents = Array.isArray(agents)
        ? { alternatives: [agents], match: "in-order" }
        : { alternatives: [agents.names], match: agents.match };
    }
    if (tools) {
      const { calls, match } = Array.isArray(tools) ? { calls: tools, match: "in-order" as const } : tools;
      expect.tools = { calls: calls.map(toolExpectation), match };
    }
    if (answer) {
      expect.answer = {
        ...(answer.contains ? { contains: answer.contains } : {}),
        ...(answer.not_contains ? { notContains: answer.not_contains } : {}),
        ...(answer.regex ? { regex: answer.regex } : {}),
      };
    }
    if (rubric) expect.rubric = rubric;
    return {
      key: `${set.name}/${c.id}`,
      id: c.id,
      set: set.name,
      messages: c.messages ?? [c.input as string],
      target: c.target ?? set.target ?? SUPERVISOR,
      expect,
      origin: `${basename(origin)}#${c.id}`,
      ...(c.vendors ? { vendors: c.vendors } : {}),
    };
  });
  return { name: set.name, ...(set.runs ? { runs: set.runs } : {}), cases };
}

function toolExpectation(call: ToolCallExpectationFile): ToolCallExpectation {
  if (typeof call === "string") return { name: call };
  const args = call.args
    ? Object.fromEntries(Object.entries(call.args).map(([name, value]) => [name, argMatcher(value)]))
    : undefined;
  return { name: call.name, ...(call.agent ? { agent: call.agent } : {}), ...(args ? { args } : {}) };
}

function argMatcher(value: unknown): ArgMatcher {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === "contains" || keys[0] === "regex" || keys[0] === "any"))
      return value as ArgMatcher;
  }
  return { equals: value };
}

/** Each problem with its path in the file (`cases[3] (jira-search).expect.tools[0].name: …`). */
function describeIssues(raw: unknown, error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path
        .map((part, index) => {
          if (typeof part !== "number") return `${index === 0 ? "" : "."}${String(part)}`;
          const id =
            index === 1 && issue.path[0] === "cases"
              ? (raw as { cases?: Array<{ id?: unknown }> }).cases?.[part]?.id
              : undefined;
          return `[${part}]${typeof id === "string" ? ` (${id})` : ""}`;
        })
        .join("");
      return `${path || "(the file)"}: ${issue.message}`;
    })
    .join("; ");
}
