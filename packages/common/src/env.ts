import type { z } from "zod";
import { SwitchboardError } from "./errors.js";

/** The environment without unset or blank variables: empty strings in env files mean "unset". */
export function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())),
  );
}

export interface EnvParseOptions {
  /** The SwitchboardError code, e.g. `auth.config`. */
  code: string;
  /** What the settings are, starting the message: `Invalid <what>: VAR: problem; VAR: problem`. */
  what: string;
}

/**
 * Parses the environment's set variables (blank ones count as unset) with `schema`. A bad value is a
 * `user` SwitchboardError naming each variable and what is wrong with it (the schema's messages say
 * how to fix it): `Invalid <what>: AUTH_JWT_SECRET: use at least 32 characters …`.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv,
  options: EnvParseOptions,
): z.output<S> {
  const parsed = schema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new SwitchboardError(options.code, "user", `Invalid ${options.what}: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/**
 * The first of `names` set to a non-blank value, trimmed: one setting CAIPE reads under several names
 * (ATLASSIAN_EMAIL, then JIRA_EMAIL, then JIRA_USER), in CAIPE's order of precedence.
 */
export function firstSetting(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
