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
 * audience, expiry, age, signature); a refusal says why, never the token. The subject rides along
 * so a session stays its user's.
 */
export function userTokenVerifier(auth: JwtSettings): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token) {
      const caller = await verifyUserToken(auth, token);
      // The reason goes into WWW-Authenticate's quoted error_description: no double quotes in it.
      if (typeof caller === "string") throw new InvalidTokenError(caller.replaceAll('"', "'"));
      const { exp, scope, azp, client_id } = caller.claims as Record<string, unknown>;
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
export function mcpAuthorization(options: { auth: JwtSettings; issuer: string; publicUrl: string }): {
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
      verifier: userTokenVerifier(options.auth),
      resourceMetadataUrl: metadataUrl.href,
    }),
  };
}
