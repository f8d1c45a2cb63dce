import { principalOf } from "@switchboard/agent-runtime";
import { readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import type { A2AGrpcHandlers } from "@switchboard/agent-runtime/grpc";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { agentSpec } from "../../test/agent-spec.js";
import { visibleTo } from "../build/visibility.js";
import type { AgentSet, RunningAgent } from "./agent-set.js";
import { grpcRoute } from "./grpc.js";

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const env = {
  AUTH_MODE: "jwt",
  AUTH_JWT_SECRET: SECRET,
  AUTH_ISSUER: "https://idp.test",
  AUTH_AUDIENCE: "switchboard",
};

/** The agents' handlers stand for "the call reached this agent" (the agents themselves are the int test's). */
const reached = (id: string) => ({ v1: {}, legacy: {}, id }) as unknown as A2AGrpcHandlers;

function route(authMode: "none" | "jwt", draining = false) {
  const running = new Map<string, RunningAgent>();
  for (const one of [agentSpec("open"), agentSpec("team", { visibility: "team", ownerTeam: "team-a" })]) {
    running.set(one.id, {
      spec: one,
      visibleTo: visibleTo(one, authMode),
      agent: { grpcHandlers: async () => reached(one.id) },
    } as unknown as RunningAgent);
  }
  return grpcRoute({
    agents: { get: (id: string) => running.get(id) } as AgentSet,
    auth: readAuthSettings(authMode === "jwt" ? env : {}, "dynamic-agents"),
    authFor: (id) => readAuthSettings(authMode === "jwt" ? env : {}, id),
    principalOf: (caller) => principalOf(caller, ["groups"]),
    draining: () => draining,
  });
}

const tokenOf = (groups: string[], secret = SECRET) =>
  new SignJWT({ groups })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("someone")
    .setIssuer(env.AUTH_ISSUER)
    .setAudience(env.AUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(secret));

const headers = (token: string | undefined) => (name: string) =>
  name === "authorization" && token ? `Bearer ${token}` : undefined;

describe("where the host sends a gRPC call", () => {
  it("sends a team's agent's members to it, and answers anyone else as it answers a tenant naming no agent", async () => {
    const member = await tokenOf(["team-a"]);
    const outsider = await tokenOf(["team-b"]);
    const to = route("jwt");
    expect(await to("team", headers(member))).toMatchObject({ id: "team" });
    expect(await to("open", headers(outsider))).toMatchObject({ id: "open" });
    const refused = await to("team", headers(outsider));
    const unknown = await to("nobody", headers(outsider));
    expect(refused).toEqual({
      refused: "not-found",
      details: 'No agent "team" here: GET /agents lists yours.',
    });
    expect(unknown).toEqual({
      refused: "not-found",
      details: 'No agent "nobody" here: GET /agents lists yours.',
    });
  });

  it("refuses a forged or missing token alike for a team's agent and for no agent, before either is told", async () => {
    const forged = await tokenOf(["team-a"], "another-secret-of-at-least-thirty-two-chars");
    const to = route("jwt");
    for (const token of [forged, undefined]) {
      const team = await to("team", headers(token));
      const unknown = await to("nobody", headers(token));
      expect(team).toMatchObject({ refused: "unauthenticated" });
      expect(unknown).toEqual(team);
    }
  });

  it("says how to name an agent when a call names none, cuts a long tenant, and turns calls away while draining", async () => {
    const to = route("none");
    expect(await to("", headers(undefined))).toMatchObject({
      refused: "not-found",
      details: expect.stringContaining("name one in the request's tenant"),
    });
    const long = await to("x".repeat(10_000), headers(undefined));
    expect(JSON.stringify(long).length).toBeLessThan(200);
    expect(await to("team", headers(undefined))).toMatchObject({ id: "team" });
    expect(await route("none", true)("open", headers(undefined))).toMatchObject({ refused: "unavailable" });
  });
});
