import { z } from "zod";
import { SwitchboardError } from "./errors.js";

/** The environment without unset or blank variables: empty strings in env files mean "unset". */
export function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())),
  );
}

export interface EnvParseOptions {
  /** The SwitchboardError code, e.g. `auth.config` (an issue may name its own: `params: { code }`). */
  code: string;
  /** What the settings are, starting the message: `Invalid <what>: VAR: problem; VAR: problem`. */
  what: string;
  /**
   * CAIPE's names for one setting, in its order of precedence: the first one set is read under the
   * setting's name (`{ ATLASSIAN_EMAIL: ["ATLASSIAN_EMAIL", "JIRA_EMAIL", "JIRA_USER"] }`).
   */
  aliases?: Readonly<Record<string, readonly string[]>>;
  /**
   * The sentence for required settings left unset, given their names: an agent says it is not
   * configured and what to set (`The Jira agent is not configured: set ATLASSIAN_TOKEN (…).`).
   */
  unset?: (names: string[]) => string;
}

/** The set variables, each alias folded into its setting's name. */
function folded(env: NodeJS.ProcessEnv, aliases: EnvParseOptions["aliases"]): Record<string, string> {
  const set = withoutEmpty(env);
  if (!aliases) return set;
  const result = { ...set };
  for (const [name, names] of Object.entries(aliases)) {
    const first = names.find((one) => set[one] !== undefined);
    if (first === undefined) delete result[name];
    else result[name] = set[first] as string;
  }
  return result;
}

/**
 * Parses the environment's set variables (blank ones count as unset) with `schema`. A bad value is a
 * `user` SwitchboardError naming each variable and what is wrong with it (the schema's messages say
 * how to fix it): `Invalid <what>: AUTH_JWT_SECRET: use at least 32 characters …`. A message that
 * starts with its variable's name, or is about no one variable, is a sentence of its own and is
 * said as it is; required settings
 * left unset are said with `options.unset` when given. No message repeats a value the schema's own
 * messages do not (a secret's value never appears).
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv,
  options: EnvParseOptions,
): z.output<S> {
  const input = folded(env, options.aliases);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const isUnset = (issue: z.core.$ZodIssue) =>
    options.unset !== undefined &&
    issue.code === "invalid_type" &&
    issue.path.length === 1 &&
    !(String(issue.path[0]) in input);
  const unset = issues.filter(isUnset).map((issue) => String(issue.path[0]));
  const problems = issues.filter((issue) => !isUnset(issue));
  // A problem of the whole (no path) or one that names its setting first is a sentence of its own.
  const whole = (issue: z.core.$ZodIssue) =>
    issue.path.length === 0 || issue.message.startsWith(issue.path.join("."));
  const parts: string[] = [];
  if (unset.length > 0 && options.unset) parts.push(options.unset(unset));
  if (problems.length > 0 && problems.every(whole))
    parts.push(problems.map((issue) => issue.message).join(" "));
  else if (problems.length > 0) {
    const said = problems.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    parts.push(`Invalid ${options.what}: ${said.join("; ")}`);
  }
  const code = issues
    .map((issue) => (issue.code === "custom" ? issue.params?.code : undefined))
    .find((one): one is string => typeof one === "string");
  throw new SwitchboardError(code ?? options.code, "user", parts.join(" "));
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

/**
 * The `unset` sentence of an agent whose vendor settings are missing, the same for every agent:
 * `The Jira agent is not configured: set ATLASSIAN_API_URL, ATLASSIAN_TOKEN (what each one is).`
 */
export function notConfigured(agent: string, what: string): (names: string[]) => string {
  return (names) => `The ${agent} agent is not configured: set ${names.join(", ")} (${what}).`;
}

/**
 * A base URL setting as the vendor agents read one: trimmed, `fallback` when unset (else required),
 * without trailing slashes or `apiPath`, the path the client adds itself (`/api/v1`).
 */
export function baseUrlSetting(fallback?: string, apiPath?: string) {
  const text = z.string().trim();
  return (fallback === undefined ? text : text.default(fallback)).transform((url: string) => {
    const bare = url.replace(/\/+$/, "");
    return apiPath && bare.endsWith(apiPath) ? bare.slice(0, -apiPath.length) : bare;
  });
}
