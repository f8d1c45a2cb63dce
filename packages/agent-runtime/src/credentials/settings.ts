import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import { readSealingKey } from "./sealing.js";

const LinkingEnv = z.object({
  LINKED_TOKENS_ENABLED: z
    .enum(["true", "false"], { message: "must be true or false" })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true")),
  CREDENTIALS_ENCRYPTION_KEY: z.string().optional(),
});

/** Whether users may link their own vendor tokens here, and the key that seals them. */
export type LinkingSettings = { enabled: true; key: Buffer } | { enabled: false; reason: string };

/** Said by the API (and the web chat) when linking is off: what turns it on. */
export const LINKING_OFF =
  "Linking your own tokens is off on this agent: an administrator sets CREDENTIALS_ENCRYPTION_KEY (32 bytes: `openssl rand -hex 32`) to turn it on.";

/**
 * `LINKED_TOKENS_ENABLED` (true | false); unset: on exactly when `CREDENTIALS_ENCRYPTION_KEY` is
 * set. On, a missing or malformed key is a start-up error naming the variable (a key that does not
 * open the tokens already stored is refused when the store opens, see LinkedTokens.open).
 */
export function readLinkingSettings(env: NodeJS.ProcessEnv): LinkingSettings {
  const e = parseEnv(LinkingEnv, env, { code: "credentials.config", what: "linked-token settings" });
  const keySet = (e.CREDENTIALS_ENCRYPTION_KEY ?? "").trim() !== "";
  if (e.LINKED_TOKENS_ENABLED === false) {
    return {
      enabled: false,
      reason: "Linking your own tokens is turned off on this agent (LINKED_TOKENS_ENABLED=false).",
    };
  }
  if (!keySet) {
    if (e.LINKED_TOKENS_ENABLED) {
      throw new SwitchboardError(
        "credentials.key",
        "user",
        "LINKED_TOKENS_ENABLED=true but CREDENTIALS_ENCRYPTION_KEY is not set: set it to a 32-byte key (`openssl rand -hex 32`) to store linked tokens, or set LINKED_TOKENS_ENABLED=false.",
      );
    }
    return { enabled: false, reason: LINKING_OFF };
  }
  return { enabled: true, key: readSealingKey(e.CREDENTIALS_ENCRYPTION_KEY) };
}
