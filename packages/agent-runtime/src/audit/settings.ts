import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import { type AuditKey, readAuditKey } from "./key.js";

const AuditEnv = z.object({
  // How long audit lines are kept (a TTL index); 0 keeps them forever.
  AUDIT_RETENTION_DAYS: z.coerce.number().nonnegative().default(0),
  // The key that links each line to the one before it (HMAC-SHA-256), kept out of the database.
  AUDIT_HMAC_KEY: z.string().optional(),
  // Keys that linked older lines, comma-separated: the verifier's, after a rotation.
  AUDIT_HMAC_PREVIOUS_KEYS: z.string().optional(),
  // An append-only JSONL file each line's sequence number and link are written to as it is stored.
  AUDIT_ANCHOR_FILE: z.string().trim().optional(),
});

/** The audit trail's settings, read by the agents and by `audit:verify` alike. */
export interface AuditSettings {
  /** Days lines are kept; undefined: forever. */
  retentionDays?: number;
  /** The key new lines are linked with; undefined: unkeyed (see requireAuditKey). */
  key?: AuditKey;
  /** Keys older lines were linked with, for the verifier. */
  previousKeys: AuditKey[];
  anchorFile?: string;
}

export function readAuditSettings(env: NodeJS.ProcessEnv): AuditSettings {
  const e = parseEnv(AuditEnv, env, { code: "audit.config", what: "audit trail settings" });
  const key = e.AUDIT_HMAC_KEY?.trim() ? readAuditKey(e.AUDIT_HMAC_KEY, "AUDIT_HMAC_KEY") : undefined;
  const previousKeys = (e.AUDIT_HMAC_PREVIOUS_KEYS ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => readAuditKey(item, `AUDIT_HMAC_PREVIOUS_KEYS (key ${index + 1})`));
  return {
    ...(e.AUDIT_RETENTION_DAYS > 0 ? { retentionDays: e.AUDIT_RETENTION_DAYS } : {}),
    ...(key ? { key } : {}),
    previousKeys,
    ...(e.AUDIT_ANCHOR_FILE ? { anchorFile: e.AUDIT_ANCHOR_FILE } : {}),
  };
}

/**
 * Whether an agent may start with the trail it would write. Signed-in users (AUTH_MODE=jwt) with the
 * trail in MongoDB is a shared deployment: an unkeyed chain there can be rewritten by anyone who can
 * write the database, so the start stops until AUDIT_HMAC_KEY is set. AUTH_MODE=none is one local
 * user's machine: one warning line. A trail in memory has no database writer to fear.
 */
export function auditKeyProblem(
  settings: AuditSettings,
  where: { authMode: "none" | "jwt"; stored: boolean },
): { error: SwitchboardError } | { warning: string } | undefined {
  if (settings.key || !where.stored) return undefined;
  const why =
    "without it, anyone who can write the database can edit the audit trail and recompute its hashes";
  if (where.authMode === "jwt") {
    return {
      error: new SwitchboardError(
        "audit.key",
        "user",
        `AUDIT_HMAC_KEY is not set and AUTH_MODE=jwt: ${why}. Set AUDIT_HMAC_KEY to a 32-byte key (\`openssl rand -hex 32\`), the same on every replica, kept out of the database and given to \`pnpm audit:verify\`.`,
      ),
    };
  }
  return {
    warning: `AUDIT_HMAC_KEY is not set: the audit trail is unkeyed (${why}). Set it for production.`,
  };
}
