import { randomUUID } from "node:crypto";
import { SwitchboardError } from "@switchboard/common";
import { cedar } from "./cedar.js";
import type { PolicyTexts } from "./policy-set.js";
import { type AuthzQuestion, cedarRequest } from "./request.js";

export interface AuthzDecision {
  allowed: boolean;
  /** The policies that decided: those that permitted, or those that forbade. Empty: none applied. */
  policies: string[];
  /** Problems evaluating a policy (a missing attribute, say): such a policy is skipped, as Cedar does. */
  errors: string[];
}

/**
 * Decides with Cedar, embedded (its WebAssembly build): nothing else runs, a decision takes
 * about a tenth of a millisecond, and policies are text people review. Cedar is loaded by the first
 * engine (see cedar.ts), so an agent without policies never loads it. A policy set is parsed
 * once when it is loaded (Cedar's preparsed sets), not at every call. Deny unless a policy
 * permits and none forbids.
 */
export class PolicyEngine {
  private current: string;
  private readonly cedar = cedar();

  constructor(policies: PolicyTexts) {
    this.current = PolicyEngine.load(policies);
  }

  /** Replaces the policies (a reload); the old set is kept if the new one fails to load. */
  replace(policies: PolicyTexts): void {
    this.current = PolicyEngine.load(policies);
  }

  decide(question: AuthzQuestion): AuthzDecision {
    const answer = this.cedar.statefulIsAuthorized({
      ...cedarRequest(question),
      preparsedPolicySetId: this.current,
    });
    if (answer.type === "failure") {
      // The request itself was malformed: our bug, never the caller's fault, and never an allow.
      throw new SwitchboardError(
        "authz.request",
        "system",
        `The policy engine could not evaluate the request: ${answer.errors.map((error) => error.message).join("; ")}`,
      );
    }
    const { decision, diagnostics } = answer.response;
    return {
      allowed: decision === "allow",
      policies: diagnostics.reason,
      errors: diagnostics.errors.map(({ policyId, error }) => `${policyId}: ${error.message}`),
    };
  }

  /** Cedar keeps preparsed sets by id in the WebAssembly instance: each load gets a fresh id. */
  private static load(policies: PolicyTexts): string {
    const id = `switchboard-${randomUUID()}`;
    const parsed = cedar().preparsePolicySet(id, { staticPolicies: policies });
    if (parsed.type === "failure") {
      throw new SwitchboardError(
        "authz.policy",
        "user",
        `Cedar refused the policies: ${parsed.errors.map((error) => error.message).join("; ")}`,
      );
    }
    return id;
  }
}
