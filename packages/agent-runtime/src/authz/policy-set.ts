import type { DetailedError } from "@cedar-policy/cedar-wasm/nodejs";
import { SwitchboardError } from "@switchboard/common";
import { cedar } from "./cedar.js";

/** Policies by id: a policy's `@id("…")` annotation, else `policy<N>` in file order. */
export type PolicyTexts = Record<string, string>;

/**
 * Parses a Cedar policy file. A file Cedar refuses is a `user` error carrying Cedar's own message
 * and where in the file it is.
 */
export function parsePolicies(text: string, source: string): PolicyTexts {
  const parts = cedar().policySetTextToParts(text);
  if (parts.type === "failure") throw refused(source, parts.errors, text);
  if (parts.policy_templates.length > 0) {
    throw new SwitchboardError(
      "authz.policy",
      "user",
      `${source}: policy templates are not supported; write each policy out.`,
    );
  }
  const policies: PolicyTexts = {};
  parts.policies.forEach((policy, index) => {
    const id = /^\s*@id\(\s*"((?:[^"\\]|\\.)*)"\s*\)/m.exec(policy)?.[1] ?? `policy${index}`;
    if (id in policies) {
      throw new SwitchboardError("authz.policy", "user", `${source}: two policies have the id "${id}".`);
    }
    policies[id] = policy;
  });
  const checked = cedar().checkParsePolicySet({ staticPolicies: policies });
  if (checked.type === "failure") throw refused(source, checked.errors, text);
  return policies;
}

function refused(source: string, errors: DetailedError[], text: string): SwitchboardError {
  const described = errors.map((error) => {
    const at = error.sourceLocations?.[0];
    const where = at ? ` (line ${lineOf(text, at.start)}${at.label ? `: ${at.label}` : ""})` : "";
    return `${error.message}${where}${error.help ? `; ${error.help}` : ""}`;
  });
  return new SwitchboardError(
    "authz.policy",
    "user",
    `${source} is not a valid Cedar policy set: ${described.join("; ")}`,
  );
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}
