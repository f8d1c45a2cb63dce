/**
 * The one rule for keeping secrets out of text a person or a log reads: known secret values are
 * replaced by a mask, a URL's password (`redis://:****@host`, any scheme) and its secret query
 * parameters (`?token=****`) by `****`, and anything shaped like a token by `[redacted]`.
 */

/** What replaces a secret value or token. */
export const SECRET_MASK = "[redacted]";
/** What replaces the password of a connection string (`mongodb://user:****@host`). */
export const PASSWORD_MASK = "****";

/** Fields whose values never reach a log line, wherever a caller puts them (pino redact paths). */
export const SECRET_LOG_PATHS = [
  "password",
  "token",
  "apiKey",
  "authorization",
  "*.password",
  "*.token",
  "*.apiKey",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "req.headers.authorization",
  "req.headers.cookie",
];

/**
 * Values shorter than this are no secret worth the name (a placeholder such as "x"), and masking them
 * would garble every word they occur in.
 */
const MIN_SECRET_LENGTH = 3;

/** Replaces every occurrence of each known secret value (those too short to be one are skipped) with `mask`. */
export function maskSecrets(text: string, secrets: Iterable<string>, mask: string = SECRET_MASK): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) result = result.split(secret).join(mask);
  }
  return result;
}

/** URI credentials as `user:password` (already split from the host): the password becomes `****`. */
export function maskUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(":");
  return colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:${PASSWORD_MASK}`;
}

/**
 * A URL's password: `scheme://user:password@` or `scheme://:password@` (Redis' form), up to the
 * authority's last `@` (as URL parsers read it), so an unencoded `@` in the password is masked too.
 */
const URL_PASSWORD = /(\b[a-z][a-z\d+.-]*:\/\/[^\s:/?#@"'<>]*:)[^\s/?#"'<>]+@/gi;
/**
 * A secret in a URL's query: a parameter named for a token, secret, password, key or signature
 * (`token`, `access_token`, `client_secret`, `api_key`, `X-Amz-Signature`, …) or an OAuth `code`.
 */
const URL_QUERY_SECRET =
  /([?&](?:[\w.-]*(?:token|secret|password|passwd|pwd|key|signature|credential)|sig|code|auth)=)[^&\s#"'<>]+/gi;

/**
 * Masks the secrets a URL can carry wherever one is printed: its userinfo password and its secret
 * query parameters become `****`; the rest of the URL stays readable (scheme, host, path).
 */
export function maskUrlSecrets(text: string): string {
  if (!text.includes("://") && !text.includes("=")) return text;
  return text.replace(URL_PASSWORD, `$1${PASSWORD_MASK}@`).replace(URL_QUERY_SECRET, `$1${PASSWORD_MASK}`);
}

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/(bearer\s+)[\w\-.~+/]+=*/gi, `$1${SECRET_MASK}`],
  [/\b(sk|ghp|gho|ghs|ghu|github_pat|glpat|xox[abp])[-_][\w-]{8,}/gi, SECRET_MASK],
  // Atlassian API tokens.
  [/\bATATT[\w-]{20,}/g, SECRET_MASK],
  // AWS access key ids (long-term AKIA…, temporary ASIA…).
  [/\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g, SECRET_MASK],
];

/**
 * Removes anything that looks like a credential from text shown to users or written to logs:
 * bearer tokens, well-known token prefixes (sk-, ghp_, glpat-, xoxb-…), AWS access key ids, URL
 * passwords and secret query parameters (see maskUrlSecrets); then each of the known `secrets` values.
 */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  const patterned = SECRET_PATTERNS.reduce(
    (result, [pattern, replacement]) => result.replace(pattern, replacement),
    maskUrlSecrets(text),
  );
  return maskSecrets(patterned, secrets);
}
