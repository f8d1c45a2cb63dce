import { type Principal, principalOf } from "@switchboard/agent-runtime";
import { type AuthSettings, verifyUserToken } from "@switchboard/agent-runtime/auth/bearer";

/** A request without a token (or any request under AUTH_MODE=none): it reads what everyone may read. */
export const ANONYMOUS: Principal = { subject: "", groups: [], authenticated: false };

/** Who a request is: a principal, or why its token is refused (words for a 401, never the token). */
export type Caller = { principal: Principal; token?: string } | { refused: string };

/**
 * The principal of a request, only from its verified bearer token (AUTH_MODE=jwt: issuer, audience,
 * expiry, age, signature, as every agent checks them; groups from OIDC_GROUP_CLAIM). No token is the
 * unauthenticated principal, which reads only what everyone may read; a token that does not verify is
 * refused, never read as no token. AUTH_MODE=none: everyone is the local, unauthenticated principal.
 */
export async function callerOf(
  auth: AuthSettings,
  groupClaims: string[],
  authorization: string | undefined,
): Promise<Caller> {
  if (auth.mode === "none" || authorization === undefined) return { principal: ANONYMOUS };
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (!token) return { refused: 'the Authorization header must be "Bearer <JWT>"' };
  const caller = await verifyUserToken(auth, token);
  if (typeof caller === "string") return { refused: caller };
  return { principal: principalOf(caller, groupClaims), token };
}
