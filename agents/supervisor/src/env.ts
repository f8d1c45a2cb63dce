import { parseEnv } from "@switchboard/common";
import { z } from "zod";

const SupervisorEnv = z.object({
  // CAIPE's name for the dynamic-agents service: its agents are listed at <url>/agents.
  // No credentials in it: the URL is named in log lines.
  DYNAMIC_AGENTS_URL: z
    .url({
      protocol: /^https?$/,
      error: "use the dynamic-agents host's base URL, e.g. http://dynamic-agents:8100",
    })
    .refine((url) => !new URL(url).username && !new URL(url).password, {
      error: "put no user name or password in it: the host's agents decide each call by the token it carries",
    })
    .optional(),
  // How often that list is read again: an agent made or deleted there joins or leaves within it.
  DYNAMIC_AGENTS_POLL_SECONDS: z.coerce
    .number({ error: "use a number of seconds, e.g. 10" })
    .positive({ error: "use a number of seconds above 0, e.g. 10" })
    .default(10),
});

/** Where the supervisor finds configured agents (agents/dynamic-agents), and how often it looks. */
export interface ConfiguredAgentsSettings {
  /** DYNAMIC_AGENTS_URL without a trailing slash. */
  url: string;
  /** DYNAMIC_AGENTS_POLL_SECONDS, in ms. */
  pollMs: number;
}

/** The supervisor's own settings beyond ENABLE_<AGENT> (subagents-env.ts) and the runtime's. */
export function readConfiguredAgentsSettings(env: NodeJS.ProcessEnv): ConfiguredAgentsSettings | undefined {
  const settings = parseEnv(SupervisorEnv, env, { code: "supervisor.config", what: "supervisor settings" });
  if (!settings.DYNAMIC_AGENTS_URL) return undefined;
  return {
    url: settings.DYNAMIC_AGENTS_URL.replace(/\/+$/, ""),
    pollMs: settings.DYNAMIC_AGENTS_POLL_SECONDS * 1000,
  };
}
