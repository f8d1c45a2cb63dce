import type { PolicyTexts } from "./policy-set.js";

/**
 * CAIPE's roles: admin may do everything (configuring agents too, as CAIPE's admins alone create
 * dynamic agents), readonly may reach agents and read; none, nothing.
 */
export type Role = "admin" | "readonly" | "none";

export interface RbacSettings {
  adminGroups: string[];
  readonlyGroups: string[];
  /** What a signed-in user in none of the groups may do (CAIPE's default: readonly). */
  defaultRole: Role;
  /** A group every user must be in to use Switchboard at all (CAIPE's OIDC_REQUIRED_GROUP). */
  requiredGroup?: string;
}

const ACTIONS: Record<Exclude<Role, "none">, string> = {
  admin: "action",
  readonly: 'action in [Switchboard::Action::"reach", Switchboard::Action::"read"]',
};

/**
 * CAIPE's simple role settings as Cedar policies, so one engine decides either way and a policy
 * file can add to them (`AUTHZ_POLICY_FILE`).
 */
export function rbacPolicies(settings: RbacSettings): PolicyTexts {
  const policies: PolicyTexts = {};
  settings.adminGroups.forEach((group, index) => {
    policies[`rbac-admin-${index}`] =
      `permit(principal in Switchboard::Group::${quoted(group)}, ${ACTIONS.admin}, resource);`;
  });
  settings.readonlyGroups.forEach((group, index) => {
    policies[`rbac-readonly-${index}`] =
      `permit(principal in Switchboard::Group::${quoted(group)}, ${ACTIONS.readonly}, resource);`;
  });
  if (settings.defaultRole !== "none") {
    policies[`rbac-default-${settings.defaultRole}`] =
      `permit(principal, ${ACTIONS[settings.defaultRole]}, resource) when { principal.authenticated };`;
  }
  if (settings.requiredGroup) {
    policies["rbac-required-group"] =
      `forbid(principal, action, resource) unless { principal in Switchboard::Group::${quoted(settings.requiredGroup)} };`;
  }
  return policies;
}

/** A Cedar string literal. */
function quoted(value: string): string {
  return JSON.stringify(value);
}
