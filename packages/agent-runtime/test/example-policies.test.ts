import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PolicyEngine } from "../src/authz/engine.js";
import { parsePolicies } from "../src/authz/policy-set.js";
import type { Principal } from "../src/authz/principal.js";

const dir = join(import.meta.dirname, "..", "..", "..", "docs", "policies");
const engineFor = (file: string) =>
  new PolicyEngine(parsePolicies(readFileSync(join(dir, file), "utf8"), file));
const user = (subject: string, ...groups: string[]): Principal => ({ subject, groups, authenticated: true });

describe("the example policies do what their comments say", () => {
  it("read-only-with-changers", () => {
    const engine = engineFor("read-only-with-changers.cedar");
    const change = { action: "change" as const, agent: "github", tool: "create_issue" };
    expect(
      engine.decide({ principal: user("ann"), action: "read", agent: "github", tool: "list_repos" }).allowed,
    ).toBe(true);
    expect(engine.decide({ principal: user("ann"), ...change }).allowed).toBe(false);
    expect(engine.decide({ principal: user("root", "platform-admins"), ...change }).allowed).toBe(true);
    const audit = { action: "audit" as const, agent: "github" };
    expect(engine.decide({ principal: user("ann"), ...audit }).allowed).toBe(false);
    expect(engine.decide({ principal: user("root", "platform-admins"), ...audit }).allowed).toBe(true);
  });

  it("per-project", () => {
    const engine = engineFor("per-project.cedar");
    const payer = user("pat", "payments");
    const jira = (project: string) =>
      engine.decide({
        principal: payer,
        action: "change",
        agent: "jira",
        tool: "create_issue",
        resource: { project },
      });
    expect(jira("PAY").allowed).toBe(true);
    expect(jira("OPS").allowed).toBe(false);
    const github = (owner: string) =>
      engine.decide({
        principal: payer,
        action: "change",
        agent: "github",
        tool: "create_issue",
        resource: { owner },
      });
    expect(github("acme-payments").allowed).toBe(true);
    expect(github("acme-core").allowed).toBe(false);
    const sync = engine.decide({
      principal: user("admin", "payments"),
      action: "change",
      agent: "argocd",
      tool: "sync_application",
      resource: { application: "prod" },
    });
    expect(sync).toMatchObject({ allowed: false, policies: ["no-prod-syncs"] });
  });

  it("reserved-agent", () => {
    const engine = engineFor("reserved-agent.cedar");
    expect(engine.decide({ principal: user("dev"), action: "reach", agent: "aws" }).allowed).toBe(false);
    expect(engine.decide({ principal: user("dev"), action: "reach", agent: "jira" }).allowed).toBe(true);
    expect(
      engine.decide({ principal: user("sam", "sre"), action: "change", agent: "aws", tool: "stop_instance" })
        .allowed,
    ).toBe(true);
  });

  it("team-lead-approves", () => {
    const engine = engineFor("team-lead-approves.cedar");
    const approve = (approver: Principal, requester: Principal, project: string) =>
      engine.decide({
        principal: approver,
        action: "approve",
        agent: "jira",
        tool: "create_issue",
        resource: { project },
        requester,
      }).allowed;
    const lead = user("lee", "payments-leads");
    expect(approve(lead, user("pat", "payments"), "PAY")).toBe(true);
    expect(approve(lead, user("pat", "payments"), "OPS")).toBe(false);
    expect(approve(lead, user("ops", "operations"), "PAY")).toBe(false);
    expect(approve(user("ann", "payments"), user("pat", "payments"), "PAY")).toBe(false);
  });

  it("own-token-for-changes", () => {
    const engine = engineFor("own-token-for-changes.cedar");
    const call = (action: "read" | "change", credential: "linked" | "service") =>
      engine.decide({ principal: user("ann"), action, agent: "github", tool: "create_issue", credential });
    expect(call("read", "service").allowed).toBe(true);
    expect(call("change", "linked").allowed).toBe(true);
    expect(call("change", "service")).toMatchObject({ allowed: false, policies: ["changes-as-yourself"] });
    // Decided as before where the question names no credential: the service's.
    expect(
      engine.decide({ principal: user("ann"), action: "change", agent: "github", tool: "create_issue" })
        .allowed,
    ).toBe(false);
  });
});
