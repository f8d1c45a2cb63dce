import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { metadataHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/metadata.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthTokenVerifier } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { verifyUserToken } from "@switchboard/agent-runtime/auth/bearer";
import type { RequestHandler } from "express";

type JwtSettings = Extract<AuthSettings, { mode: "jwt" }>;

/**
 * The user's own token, verified as every agent verifies it (agent-runtime's bearer check: issuer,
 * expiry, age, signature), then for whom it was issued. The MCP authorization spec asks an MCP server
 * to accept only tokens whose audience names it (`audience`: its resource, MCP_SERVER_AUDIENCE); and
 * the token goes on to the supervisor, which accepts only tokens for the agents (AUTH_AUDIENCE). So a
 * token must name both: one for the agents alone was not issued for this server, and one for this
 * server alone would be refused behind it. A refusal says why, never the token. The subject rides
 * along so a session stays its user's.
 */
export function userTokenVerifier(auth: JwtSettings, audience: string): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token) {
      // Every audience is checked below, each with its own words: the signature check takes none.
      const caller = await verifyUserToken({ ...auth, audience: undefined }, token);
      // The reason goes into WWW-Authenticate's quoted error_description: no double quotes in it.
      if (typeof caller === "string") throw new InvalidTokenError(caller.replaceAll('"', "'"));
      const { exp, scope, azp, client_id, aud } = caller.claims as Record<string, unknown>;
      const audiences = (Array.isArray(aud) ? aud : [aud]).filter((value) => typeof value === "string");
      if (!audiences.includes(audience)) {
        throw new InvalidTokenError(
          `the token was not issued for this MCP server: its audience (aud) does not name ${audience} (MCP_SERVER_AUDIENCE), the resource an MCP client asks the identity provider for`,
        );
      }
      if (auth.audience && !audiences.includes(auth.audience)) {
        throw new InvalidTokenError(
          `the token names this MCP server but not Switchboard's agents (${auth.audience}, AUTH_AUDIENCE), who would refuse it: have the identity provider add that audience to tokens for ${audience}`,
        );
      }
      return {
        token,
        clientId: typeof azp === "string" ? azp : typeof client_id === "string" ? client_id : "",
        scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [],
        ...(typeof exp === "number" ? { expiresAt: exp } : {}),
        extra: { subject: caller.subject },
      };
    },
  };
}

/** Where this server's protected-resource metadata is (RFC 9728): beside the MCP endpoint's path. */
export function resourceMetadataUrl(publicUrl: string): string {
  return getOAuthProtectedResourceMetadataUrl(new URL(publicUrl));
}

/**
 * The MCP authorization spec's two halves on this server: the protected-resource metadata (the MCP
 * endpoint as the resource, the identity provider the agents trust as its authorization server),
 * and a guard that answers a request without a valid token 401 with
 * `WWW-Authenticate: Bearer …, resource_metadata="…"` so a client knows where to sign in.
 */
export function mcpAuthorization(options: {
  auth: JwtSettings;
  issuer: string;
  publicUrl: string;
  /** The audience its tokens must name besides the agents' (default: publicUrl, the resource). */
  audience?: string | undefined;
}): {
  metadataPaths: string[];
  metadata: RequestHandler;
  guard: RequestHandler;
} {
  const metadataUrl = new URL(resourceMetadataUrl(options.publicUrl));
  return {
    // The path-specific document (RFC 9728 §3.1), and the root one older clients look for.
    metadataPaths: [...new Set([metadataUrl.pathname, "/.well-known/oauth-protected-resource"])],
    metadata: metadataHandler({
      resource: options.publicUrl,
      authorization_servers: [options.issuer],
      bearer_methods_supported: ["header"],
      resource_name: "Switchboard",
    }),
    guard: requireBearerAuth({
      verifier: userTokenVerifier(options.auth, options.audience ?? options.publicUrl),
      resourceMetadataUrl: metadataUrl.href,
    }),
  };
}
