// biome-ignore-all lint/suspicious/noTemplateCurlyInString: credentials name their variables as ${VAR}, on purpose.
import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

/**
 * The credentials, by the description's security scheme: each names the variables that hold it as
 * `${VAR}` (basic: `${USER}:${PASSWORD}`; OAuth2 client credentials: `${CLIENT_ID}:${CLIENT_SECRET}`).
 * openApiTools fills them from the env at each call and sends each as its scheme says; one unset fails
 * the call that needs it, naming the variable. An operation declaring `security: []` is sent none.
 */
export const AUTH: Record<string, string> = {
  api_key: "${PETSTORE_API_KEY}",
};

export interface PetstoreSettings {
  /** The API's address; undefined: the description's first server. */
  url: string | undefined;
}

const PetstoreEnv = z.object({
  // Default: the description's first server, "https://petstore3.swagger.io/api/v3".
  PETSTORE_API_URL: baseUrlSetting().optional(),
  // Security scheme "api_key", sent as the api_key header.
  PETSTORE_API_KEY: z.string().trim().optional(),
});

/** The API's address (PETSTORE_API_URL), read at start; a missing required one names the variable. */
export function readPetstoreSettings(env: NodeJS.ProcessEnv): PetstoreSettings {
  const e = parseEnv(PetstoreEnv, env, {
    code: "petstore.settings",
    what: "Petstore settings",
    unset: notConfigured("Petstore", "the API's address"),
  });
  return { url: e.PETSTORE_API_URL };
}
