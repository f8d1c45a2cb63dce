import { describe, expect, it } from "vitest";
import { PolicyEngine } from "../src/authz/engine.js";
import { parsePolicies } from "../src/authz/policy-set.js";
import { LOCAL_PRINCIPAL, type Principal, principalFromClaims } from "../src/authz/principal.js";
import { rbacPolicies } from "../src/authz/rbac.js";
import { readAuthzSettings } from "../src/authz/settings.js";

const POLICIES = `
@id("everyone-reads")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read"], resource)
when { principal.authenticated };

@id("plat-changes-plat")
permit(principal in Switchboard::Group::"plat", action == Switchboard::Action::"change", resource in Jira::Project::"PLAT");

@id("aws-is-sre-only")
forbid(principal, action, resource in Switchboard::Agent::"aws")
unless { principal in Switchboard::Group::"sre" };
`;

const reader: Principal = { subject: "u-reader", groups: ["staff"], authenticated: true };
const plat: Principal = { subject: "u-plat", groups: ["staff", "plat"], authenticated: true };
const sre: Principal = { subject: "u-sre", groups: ["sre"], authenticated: true };

describe("decisions on a Cedar policy file", () => {
  const engine = new PolicyEngine(parsePolicies(POLICIES, "test policies"));
  const change = (principal: Principal, project: string) =>
    engine.decide({
      principal,
      action: "change",
      agent: "jira",
      tool: "create_issue",
      resource: { project },
    });

  it("lets a reader search but not change", () => {
    expect(
      engine.decide({ principal: reader, action: "read", agent: "jira", tool: "search_issues" }),
    ).toMatchObject({
      allowed: true,
      policies: ["everyone-reads"],
    });
    expect(change(reader, "PLAT")).toMatchObject({ allowed: false, policies: [] });
  });

  it("scopes changes to one project, names included as Unicode compatibility forms", () => {
    expect(change(plat, "PLAT")).toMatchObject({ allowed: true, policies: ["plat-changes-plat"] });
    expect(change(plat, "OPS").allowed).toBe(false);
    expect(change(plat, "plat").allowed).toBe(false);
    expect(change(plat, "ＰＬＡＴ").allowed).toBe(true); // full-width letters are the same name
    expect(change(plat, " PLAT ").allowed).toBe(true);
    expect(change(plat, 'PLAT" || true').allowed).toBe(false);
    expect(change(plat, "PLAT\u0000").allowed).toBe(false);
  });

  it("reserves one agent to a team, whatever else permits", () => {
    expect(engine.decide({ principal: reader, action: "reach", agent: "aws" })).toMatchObject({
      allowed: false,
      policies: ["aws-is-sre-only"],
    });
    expect(engine.decide({ principal: sre, action: "reach", agent: "aws" }).allowed).toBe(true);
  });

  it("decides configure on the agent itself, whatever tool a caller names", () => {
    const builders = new PolicyEngine(
      parsePolicies(
        `@id("plat-configures-triage")
permit(principal in Switchboard::Group::"plat", action == Switchboard::Action::"configure", resource == Switchboard::Agent::"triage");`,
        "configure policies",
      ),
    );
    const configure = (principal: Principal, agent: string, tool?: string) =>
      builders.decide({ principal, action: "configure", agent, ...(tool ? { tool } : {}) });
    expect(configure(plat, "triage")).toMatchObject({ allowed: true, policies: ["plat-configures-triage"] });
    expect(configure(plat, "triage", "create_issue").allowed).toBe(true);
    expect(configure(plat, "jira").allowed).toBe(false);
    expect(configure(reader, "triage").allowed).toBe(false);
    // Reaching an agent is not configuring it, nor the other way round.
    expect(builders.decide({ principal: plat, action: "reach", agent: "triage" }).allowed).toBe(false);
    expect(engine.decide({ principal: reader, action: "configure", agent: "jira" }).allowed).toBe(false);
  });

  it("refuses the local principal where policies ask for a signed-in user", () => {
    expect(engine.decide({ principal: LOCAL_PRINCIPAL, action: "reach", agent: "jira" }).allowed).toBe(false);
  });

  it("keeps the old policies when the new ones do not load", () => {
    expect(() => parsePolicies("permit(principal, action, resource", "new.cedar")).toThrow(
      /new\.cedar is not a valid Cedar policy set: .*unexpected end of input \(line 1/,
    );
  });
});

describe("CAIPE's role settings as policies", () => {
  const engine = new PolicyEngine(
    rbacPolicies({ adminGroups: ["platform-admins"], readonlyGroups: ["staff"], defaultRole: "none" }),
  );
  const admin: Principal = { subject: "a", groups: ["platform-admins"], authenticated: true };
  const outsider: Principal = { subject: "o", groups: ["contractors"], authenticated: true };

  it("gives admins changes, readers reads, and others nothing", () => {
    const changeAsk = { action: "change" as const, agent: "github", tool: "create_issue" };
    expect(engine.decide({ principal: admin, ...changeAsk }).allowed).toBe(true);
    expect(engine.decide({ principal: reader, ...changeAsk }).allowed).toBe(false);
    expect(
      engine.decide({ principal: reader, action: "read", agent: "github", tool: "list_repos" }).allowed,
    ).toBe(true);
    expect(engine.decide({ principal: outsider, action: "reach", agent: "github" }).allowed).toBe(false);
  });

  it("lets admins configure agents, and readers and everyone else not", () => {
    const configure = { action: "configure" as const, agent: "triage" };
    expect(engine.decide({ principal: admin, ...configure }).allowed).toBe(true);
    expect(engine.decide({ principal: reader, ...configure }).allowed).toBe(false);
    expect(engine.decide({ principal: outsider, ...configure }).allowed).toBe(false);
    const readonlyByDefault = new PolicyEngine(
      rbacPolicies({ adminGroups: ["platform-admins"], readonlyGroups: [], defaultRole: "readonly" }),
    );
    expect(readonlyByDefault.decide({ principal: outsider, action: "reach", agent: "triage" }).allowed).toBe(
      true,
    );
    expect(readonlyByDefault.decide({ principal: outsider, ...configure }).allowed).toBe(false);
  });

  it("a required group shuts out everyone else, admins of other groups too", () => {
    const gated = new PolicyEngine(
      rbacPolicies({
        adminGroups: ["platform-admins"],
        readonlyGroups: [],
        defaultRole: "readonly",
        requiredGroup: "caipe-users",
      }),
    );
    expect(gated.decide({ principal: admin, action: "reach", agent: "jira" }).allowed).toBe(false);
    const member: Principal = { subject: "m", groups: ["caipe-users"], authenticated: true };
    expect(
      gated.decide({ principal: member, action: "read", agent: "jira", tool: "get_issue" }).allowed,
    ).toBe(true);
  });

  it("reads CAIPE's names, with CAIPE's default role", () => {
    const settings = readAuthzSettings({ RBAC_ADMIN_GROUPS: "a, b", OIDC_GROUP_CLAIM: "members,groups" });
    expect(settings.rbac).toEqual({ adminGroups: ["a", "b"], readonlyGroups: [], defaultRole: "readonly" });
    expect(settings.groupClaims).toEqual(["members", "groups"]);
    expect(readAuthzSettings({}).rbac).toBeUndefined();
  });
});

describe("a principal from a verified token's claims", () => {
  it("reads groups from the configured claims, lists or strings, nested or flat", () => {
    const principal = principalFromClaims(
      {
        sub: "alice",
        email: "alice@example.com",
        groups: ["plat"],
        realm_access: { roles: ["sre"] },
        members: "a, b",
      },
      ["groups", "realm_access.roles", "members"],
    );
    expect(principal).toEqual({
      subject: "alice",
      groups: ["plat", "sre", "a", "b"],
      email: "alice@example.com",
      authenticated: true,
    });
  });
});
