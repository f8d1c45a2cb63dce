import { AuthenticatedCaller, HopTokenIssuer, type User } from "@switchboard/agent-runtime";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import { SUPERVISOR } from "@switchboard/contract";
import { z } from "zod";
import type { SubagentConfig } from "./subagent-config.js";

/** What the supervisor sends a subagent as the caller's credential: never the caller's own token as such. */
export interface HopCredentials {
  /** The bearer token for one call to `agent` on behalf of `user`; none for an anonymous caller. */
  bearerFor(agent: SubagentConfig, user: User | undefined): Promise<string | undefined>;
  /**
   * The bearer token the delegating agent itself reads host `host`'s whole directory of agents with
   * (a directory token, for that host alone); none without sign-in.
   */
  directoryBearer(host: string): Promise<string | undefined>;
}

const HopEnv = z.object({
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  AUTH_HOP_SIGNING_KEY: z.string().optional(),
});

/**
 * Each hop carries a credential meant for that agent alone: a hop token the supervisor signs
 * (auth/hop-token.ts in agent-runtime: the caller's verified claims, `aud` the agent, two minutes),
 * or, for an agent named in AUTH_FORWARD_USER_TOKEN_TO, the user's own identity-provider token.
 * AUTH_MODE=jwt without AUTH_HOP_SIGNING_KEY stops the start: there is nothing to sign with. `self`
 * is the delegating agent (the supervisor, a configured agent with subagents): the tokens' issuer.
 */
export function readHopCredentials(env: NodeJS.ProcessEnv, self: string): HopCredentials {
  const e = parseEnv(HopEnv, env, { code: "auth.config", what: "hop token settings" });
  if (e.AUTH_MODE === "none")
    return { bearerFor: async () => undefined, directoryBearer: async () => undefined };
  if (!e.AUTH_HOP_SIGNING_KEY) {
    throw new SwitchboardError(
      "auth.config",
      "user",
      `AUTH_MODE=jwt on ${self === SUPERVISOR ? "the supervisor" : `the ${self} agent, which delegates,`} needs AUTH_HOP_SIGNING_KEY: the key it signs each subagent's own short-lived token with (make one with: openssl genpkey -algorithm ed25519; give the subagents its public half, openssl pkey -pubout, as AUTH_SUPERVISOR_PUBLIC_KEY).`,
    );
  }
  return hopCredentials(HopTokenIssuer.fromPem(e.AUTH_HOP_SIGNING_KEY, self));
}

export function hopCredentials(issuer: HopTokenIssuer): HopCredentials {
  return {
    async bearerFor(agent, user) {
      if (!(user instanceof AuthenticatedCaller)) return undefined;
      if (agent.forwardUserToken && user.via === "idp") return user.token;
      // Meant for the agent by its own name (the one its card carries), which a subagent's name need not be.
      return issuer.sign(user, agent.cardName ?? agent.name);
    },
    directoryBearer: (host) => issuer.signDirectory(host),
  };
}
