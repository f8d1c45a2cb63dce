import { PolicyEngine, type Principal } from "@switchboard/agent-runtime";
import type { SourceDefinition } from "@switchboard/knowledge";
import { describe, expect, it } from "vitest";
import { SourceAccess } from "./access.js";

const user = (subject: string, groups: string[]): Principal => ({ subject, groups, authenticated: true });
const alice = user("alice", ["sre"]);
const bob = user("bob", ["dev"]);
const admin = user("root", ["platform-admins"]);
/** No token: whatever it claims, it is nobody in particular. */
const anonymous: Principal = { subject: "alice", groups: ["sre"], authenticated: false };

const security = {
  id: "security",
  type: "upload",
  readers: { groups: ["sre"] },
  admins: ["sre"],
} as SourceDefinition;
const handbook = { id: "handbook", type: "upload", readers: "everyone" } as SourceDefinition;
const wiki = {
  id: "wiki",
  type: "confluence",
  url: "https://wiki",
  spaces: ["OPS"],
} as unknown as SourceDefinition;

const policies = new PolicyEngine({
  admins: 'permit(principal in Switchboard::Group::"platform-admins", action, resource);',
});

describe("who may list, sync and upload to a source", () => {
  const access = new SourceAccess(policies, "jwt");
  const none = new Set<string>();

  it("lists a source to its readers, its admins and whoever holds a document of it", () => {
    expect(access.mayList(alice, security, none)).toBe(true);
    expect(access.mayList(bob, security, none)).toBe(false);
    expect(access.mayList(anonymous, security, none)).toBe(false);
    expect(access.mayList(anonymous, handbook, none)).toBe(true);
    // A source that keeps its own permissions is listed to whom the store says reads some of it.
    expect(access.mayList(bob, wiki, none)).toBe(false);
    expect(access.mayList(bob, wiki, new Set(["wiki"]))).toBe(true);
    expect(access.mayList(admin, wiki, none)).toBe(true);
  });

  it("lets a source's admins and the policy's administrators sync it, nobody else, never without a token", () => {
    expect(access.mayAdminister(alice, security)).toBe(true);
    expect(access.mayAdminister(admin, security)).toBe(true);
    expect(access.mayAdminister(bob, security)).toBe(false);
    expect(access.mayAdminister(anonymous, security)).toBe(false);
    expect(access.mayAdminister(alice, handbook)).toBe(false);
    expect(new SourceAccess(undefined, "jwt").mayAdminister(admin, handbook)).toBe(false);
  });

  it("lets the one local user do everything without sign-in (AUTH_MODE=none), as configuring agents is", () => {
    expect(new SourceAccess(undefined, "none").mayAdminister(anonymous, security)).toBe(true);
  });
});
