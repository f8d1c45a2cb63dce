import type { User } from "@a2a-js/sdk/server";
import { UnauthenticatedUser } from "@a2a-js/sdk/server";
import { APPROVER_HEADER } from "@switchboard/a2a-client";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { AuthenticatedCaller } from "./caller.js";

const AuthEnv = z.object({
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  AUTH_JWKS_URL: z.url().optional(),
  AUTH_JWT_SECRET: z.string().min(32, "use at least 32 characters for an HS256 secret").optional(),
  AUTH_ISSUER: z.string().optional(),
  AUTH_AUDIENCE: z.string().optional(),
});

export type AuthSettings =
  | { mode: "none" }
  | { mode: "jwt"; key: Uint8Array | JWTVerifyGetKey; issuer?: string; audience?: string };

/** AUTH_MODE and its keys; jwt mode without a key to verify with is a start-up error. */
export function readAuthSettings(env: NodeJS.ProcessEnv): AuthSettings {
  const e = parseEnv(AuthEnv, env, { code: "auth.config", what: "authentication settings" });
  if (e.AUTH_MODE === "none") return { mode: "none" };
  const key = e.AUTH_JWKS_URL
    ? remoteKeys(new URL(e.AUTH_JWKS_URL))
    : e.AUTH_JWT_SECRET
      ? new TextEncoder().encode(e.AUTH_JWT_SECRET)
      : undefined;
  if (!key) {
    throw new SwitchboardError(
      "auth.config",
      "user",
      "AUTH_MODE=jwt needs a key to verify tokens: set AUTH_JWKS_URL (your identity provider's JWKS) or AUTH_JWT_SECRET (HS256).",
    );
  }
  return { mode: "jwt", key, issuer: e.AUTH_ISSUER, audience: e.AUTH_AUDIENCE };
}

/**
 * The identity provider's keys (its JWKS), fetched and cached by jose from the first token on. jose
 * itself loads with the first token too: an agent with AUTH_MODE=none never loads it.
 */
function remoteKeys(url: URL): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    keys ??= import("jose").then(({ createRemoteJWKSet }) =>
      createRemoteJWKSet(url, { timeoutDuration: 5_000 }),
    );
    return (await keys)(header, token);
  };
}

const CALLER = Symbol("switchboard.caller");
type WithCaller = Request & { [CALLER]?: AuthenticatedCaller };

/**
 * Verifies the bearer token of every A2A request before anything runs, and an approver's token when
 * the request names one (APPROVER_HEADER: the request still runs as its caller, on the caller's
 * task; the approver only counts where a change waits for a decision, see turn/approval.ts); a missing or bad token is answered 401 (in the JSON-RPC error shape on the
 * JSON-RPC binding). The tokens are kept in memory for this request only, to forward to subagents.
 */
export function bearerGuard(settings: AuthSettings, binding: "jsonrpc" | "rest"): RequestHandler {
  if (settings.mode === "none") return (_req, _res, next) => next();
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = bearerIn(req.header("authorization"));
    if (!token) return refuse(res, binding, "a bearer token is required (Authorization: Bearer <JWT>)");
    const caller = await verified(settings, token);
    if (typeof caller === "string") return refuse(res, binding, caller);
    const approverHeader = req.header(APPROVER_HEADER);
    let approver: AuthenticatedCaller | undefined;
    if (approverHeader !== undefined) {
      const approverToken = bearerIn(approverHeader);
      if (!approverToken) {
        return refuse(res, binding, `${APPROVER_HEADER} must be "Bearer <the approver's JWT>"`);
      }
      const checked = await verified(settings, approverToken);
      if (typeof checked === "string") {
        return refuse(res, binding, `the approver's ${APPROVER_HEADER} token: ${checked}`);
      }
      approver = checked;
    }
    (req as WithCaller)[CALLER] = approver
      ? new AuthenticatedCaller(caller.subject, caller.token, caller.claims, approver)
      : caller;
    next();
  };
}

function bearerIn(header: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() || undefined;
}

/** The caller a token names, or why it was refused (words for the 401). */
async function verified(
  settings: Extract<AuthSettings, { mode: "jwt" }>,
  token: string,
): Promise<AuthenticatedCaller | string> {
  try {
    const options = {
      algorithms: settings.key instanceof Uint8Array ? ["HS256"] : undefined,
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
    };
    const { jwtVerify } = await import("jose");
    const { payload } =
      settings.key instanceof Uint8Array
        ? await jwtVerify(token, settings.key, options)
        : await jwtVerify(token, settings.key, options);
    if (!payload.sub) return "the token has no subject (sub) claim";
    return new AuthenticatedCaller(payload.sub, token, payload);
  } catch (error) {
    return `the token was refused (${(error as { code?: string }).code ?? "ERR_JWT_INVALID"})`;
  }
}

/** The A2A SDK's view of who is calling: the verified caller, or anonymous. */
export async function callerOf(req: Request): Promise<User> {
  return (req as WithCaller)[CALLER] ?? new UnauthenticatedUser();
}

function refuse(res: Response, binding: "jsonrpc" | "rest", reason: string): void {
  const message = `Unauthorized: ${reason}.`;
  res.status(401).setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
  if (binding === "jsonrpc") res.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message } });
  else res.json({ error: { code: 401, status: "UNAUTHENTICATED", message } });
}
