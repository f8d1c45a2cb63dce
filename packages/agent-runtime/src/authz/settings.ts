import { parseEnv } from "@switchboard/common";
import { z } from "zod";
import { DEFAULT_GROUP_CLAIMS } from "./principal.js";
import type { RbacSettings } from "./rbac.js";

const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

const AuthzEnv = z.object({
  AUTHZ_POLICY_FILE: z.string().trim().min(1).optional(),
  // CAIPE's names.
  OIDC_GROUP_CLAIM: list,
  RBAC_ADMIN_GROUPS: list,
  RBAC_READONLY_GROUPS: list,
  RBAC_DEFAULT_AUTHENTICATED_ROLE: z
    .enum(["admin", "readonly", "none", "ingestonly"])
    .optional()
    .transform((role) => (role === "ingestonly" ? "none" : role)),
  OIDC_REQUIRED_GROUP: z.string().trim().min(1).optional(),
});

export interface AuthzSettings {
  /** A Cedar policy file, reloaded when it changes. */
  policyFile?: string;
  /** Role settings, when any is set. */
  rbac?: RbacSettings;
  /** The claims a token's groups are read from. */
  groupClaims: string[];
}

/**
 * Who may do what: a Cedar policy file (`AUTHZ_POLICY_FILE`) and/or CAIPE's role settings
 * (`RBAC_ADMIN_GROUPS`, `RBAC_READONLY_GROUPS`, `RBAC_DEFAULT_AUTHENTICATED_ROLE`,
 * `OIDC_REQUIRED_GROUP`). Neither set: no policy, everything allowed (as before).
 */
export function readAuthzSettings(env: NodeJS.ProcessEnv): AuthzSettings {
  const e = parseEnv(AuthzEnv, env, { code: "authz.config", what: "authorization settings" });
  const rbacSet =
    e.RBAC_ADMIN_GROUPS.length > 0 ||
    e.RBAC_READONLY_GROUPS.length > 0 ||
    e.RBAC_DEFAULT_AUTHENTICATED_ROLE !== undefined ||
    e.OIDC_REQUIRED_GROUP !== undefined;
  return {
    ...(e.AUTHZ_POLICY_FILE ? { policyFile: e.AUTHZ_POLICY_FILE } : {}),
    ...(rbacSet
      ? {
          rbac: {
            adminGroups: e.RBAC_ADMIN_GROUPS,
            readonlyGroups: e.RBAC_READONLY_GROUPS,
            defaultRole: e.RBAC_DEFAULT_AUTHENTICATED_ROLE ?? "readonly",
            ...(e.OIDC_REQUIRED_GROUP ? { requiredGroup: e.OIDC_REQUIRED_GROUP } : {}),
          },
        }
      : {}),
    groupClaims: e.OIDC_GROUP_CLAIM.length > 0 ? e.OIDC_GROUP_CLAIM : DEFAULT_GROUP_CLAIMS,
  };
}
