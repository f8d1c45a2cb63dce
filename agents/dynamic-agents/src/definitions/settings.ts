import { resolve } from "node:path";
import { parseEnv } from "@switchboard/common";
import { z } from "zod";

const DefinitionsEnv = z.object({
  // CAIPE's name (its compose file mounts it; CAIPE's UI reads it as APP_CONFIG_PATH inside).
  APP_CONFIG_FILE: z.string().trim().min(1).optional(),
});

export interface DefinitionSettings {
  /** The app-config.yaml to read and watch, absolute; undefined: agents come from the API only. */
  file?: string;
}

export function readDefinitionSettings(env: NodeJS.ProcessEnv): DefinitionSettings {
  const e = parseEnv(DefinitionsEnv, env, {
    code: "definitions.config",
    what: "definitions settings",
    aliases: { APP_CONFIG_FILE: ["APP_CONFIG_FILE", "APP_CONFIG_PATH"] },
  });
  return e.APP_CONFIG_FILE ? { file: resolve(e.APP_CONFIG_FILE) } : {};
}
