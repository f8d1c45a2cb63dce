import { PolicyEngine } from "@switchboard/agent-runtime";
import { describe, expect, it } from "vitest";
import { agentSpec } from "../../test/agent-spec.js";
import { HostAccess } from "./access.js";

const specs = new Map([
  ["open", agentSpec("open")],
  ["team", agentSpec("team", { visibility: "team", ownerTeam: "team-a" })],
]);
const user = (groups: string[]) => ({ subject: "u", groups, authenticated: true });

describe("the host's decisions", () => {
  it("lets nobody configure agents under sign-in without a policy, and the local user without sign-in", async () => {
    const signedIn = new HostAccess(undefined, (id) => specs.get(id), "jwt");
    expect(await signedIn.decide(user(["admins"]), "configure", "open")).toBe(false);
    expect(await signedIn.decide(user([]), "reach", "open")).toBe(true);
    const local = new HostAccess(undefined, (id) => specs.get(id), "none");
    expect(await local.decide({ subject: "local", groups: [], authenticated: false }, "configure", "x")).toBe(
      true,
    );
  });

  it("decides configure and reach by the policies, reach by the visibility too", async () => {
    const policies = new PolicyEngine({
      admins: 'permit(principal in Switchboard::Group::"admins", action, resource);',
      readers:
        'permit(principal, action == Switchboard::Action::"reach", resource) when { principal.authenticated };',
    });
    const access = new HostAccess(policies, (id) => specs.get(id), "jwt");
    expect(await access.decide(user(["admins"]), "configure", "new-one")).toBe(true);
    expect(await access.decide(user(["team-a"]), "configure", "new-one")).toBe(false);
    expect(await access.decide(user(["team-a"]), "reach", "team")).toBe(true);
    expect(await access.decide(user(["team-b"]), "reach", "team")).toBe(false);
    expect(await access.decide(user(["team-b"]), "reach", "missing")).toBe(false);
  });
});
