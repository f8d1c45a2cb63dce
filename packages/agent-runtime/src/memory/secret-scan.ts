/**
 * Vendors' token formats checked beside secretlint's recommended preset, as the vendors document them
 * (gitleaks' rule table was the checklist). Written when the preset (11.7) knew none of them; 13.1
 * knows some, and these stay so no format depends on how a preset rule is narrowed. Each has a prefix
 * or shape no ordinary sentence has.
 */
const VENDOR_TOKENS: Array<[what: string, pattern: RegExp]> = [
  ["a private key", /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ["an AWS access key id", /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/],
  // GitLab: personal, deploy, pipeline-trigger, runner, OAuth-app, feed, incoming-mail, agent tokens.
  ["a GitLab token", /\b(?:glpat|gldt|glptt|glrt|glsoat|glcbt|glft|glimt|glagent|gloas)-[\w-]{20,}/],
  ["a GitLab runner registration token", /\bGR1348941[\w-]{20,}/],
  // A JSON Web Token: base64url of `{"` (eyJ) for header and payload, then a signature.
  ["a JSON Web Token", /\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}/],
  ["an OpenAI key", /\bsk-(?:proj|svcacct|admin)-[\w-]{20,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b/],
  ["a Google API key", /\bAIza[\w-]{35}(?![\w-])/],
  ["a Stripe key", /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/],
  ["a Hugging Face token", /\bhf_[A-Za-z0-9]{30,}/],
  ["a GitHub token", /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{40,})/],
  ["an Atlassian API token", /\bATATT[\w-]{40,}/],
];

/**
 * An AWS secret access key on its own: a whole word of 40 characters of base64's alphabet, with both
 * cases and a digit (a commit SHA is 40 characters of lower-case hex, and passes; a URL's path is
 * part of a longer word, and passes).
 */
const AWS_SECRET =
  /(?<![^\s"'`=:(<[{,])(?=[A-Za-z0-9/+]*[a-z])(?=[A-Za-z0-9/+]*[A-Z])(?=[A-Za-z0-9/+]*\d)[A-Za-z0-9/+]{40}(?![^\s"'`,.;:)>\]}])/;

/** A secret given in words: "my password is …", "api key: …", "token=…". */
const STATED_SECRET =
  /\b(password|passwd|passphrase|secret|token|api[ _-]?key|access[ _-]?key|private[ _-]?key|client[ _-]?secret|credentials?)\s*(is|was|=|:)\s*["']?([^\s"']{4,})/gi;

/**
 * What follows "is"/"was" in a sentence about a secret rather than in one giving it: "the API key
 * is stored in Vault", "the token was expired", "the password is not shared".
 */
const SENTENCE_WORDS = new Set(
  "not never now still also only being kept safe secure private encrypted sensitive there here in on at of for from with by the a an your my our their its this that".split(
    " ",
  ),
);

/** "password hunter2": the word, then a value (the value is checked by {@link looksLikePassword}). */
const PASSWORD_THEN_WORD = /\b(?:password|passwd|passphrase|pwd|passcode)\s+["']?([^\s"']{4,})/gi;

/** A run of characters a token is made of (base64url, hex; `/` splits, so paths are not one run). */
const TOKEN_RUN = /[A-Za-z0-9+_-]{32,}/g;

/**
 * Why `text` must not be stored (a token, password or key in it), or undefined when it looks clean.
 * Vendors' token formats first (ours, then secretlint's recommended rules: GitHub, Slack, AWS, GCP,
 * OpenAI, Anthropic, npm, basic-auth URLs, database connection strings, …), a secret stated in
 * words, a bare AWS secret key, then any long random-looking string. secretlint loads when the
 * first text gets past the quick checks, not at the agent's start.
 */
export async function findSecret(text: string): Promise<string | undefined> {
  for (const [what, pattern] of VENDOR_TOKENS) if (pattern.test(text)) return what;
  for (const [, what, verb, value] of text.matchAll(STATED_SECRET)) {
    if (/^(?:is|was)$/i.test(verb ?? "") && isSentenceWord(value ?? "")) continue;
    return `a ${what?.toLowerCase()}`;
  }
  for (const [, value] of text.matchAll(PASSWORD_THEN_WORD))
    if (looksLikePassword(value ?? "")) return "a password";
  if (AWS_SECRET.test(text)) return "an AWS secret access key";
  if (text.match(TOKEN_RUN)?.some(looksRandom)) return "a high-entropy string (a token or key)";
  const [{ lintSource }, { creator: recommended }] = await Promise.all([
    import("@secretlint/core"),
    import("@secretlint/secretlint-rule-preset-recommend"),
  ]);
  const config = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }] };
  const result = await lintSource({
    source: { content: text, filePath: "/memory.txt", ext: ".txt", contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const found = result.messages[0];
  if (!found) return undefined;
  return `a secret (${found.ruleId.replace("@secretlint/secretlint-rule-", "")}: ${found.messageId})`;
}

/** A word of an ordinary sentence after "is"/"was": a common word, or a participle ("stored", "rotated"). */
function isSentenceWord(value: string): boolean {
  const word = value.replace(/[.,;:!?)]+$/, "");
  return SENTENCE_WORDS.has(word.toLowerCase()) || /^[a-z]+ed$/.test(word);
}

/**
 * Whether the word after "password" is a value rather than the sentence going on ("password reset",
 * "password policy", "password re-entry"): it holds a digit, a symbol other than a hyphen or
 * punctuation, or an upper-case letter after its first.
 */
function looksLikePassword(value: string): boolean {
  return /\d|[^\w.,;:!?)-]|.[A-Z]/.test(value);
}

/**
 * Whether a long run of token characters is random rather than made of words or hex: it mixes
 * upper case, lower case and digits, its characters carry at least 4 bits each (Shannon entropy),
 * and the character class (lower, upper, digit; separators skipped) changes at least every third
 * character, as random base64 does about two times in three; identifiers and slugs
 * (`AuthorizationServiceFactory2`, `Getting-Started-2024`) change class only between words. Hex
 * (commit SHAs, ids) and UUIDs have one case and pass.
 */
function looksRandom(token: string): boolean {
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/\d/.test(token)) return false;
  if (shannonBits(token) < 4) return false;
  const run = token.replace(/[-_+=]/g, "");
  let changes = 0;
  for (let i = 1; i < run.length; i += 1)
    if (classOf(run[i] as string) !== classOf(run[i - 1] as string)) changes += 1;
  return changes >= (run.length - 1) / 3;
}

function classOf(char: string): number {
  if (char >= "a" && char <= "z") return 0;
  if (char >= "A" && char <= "Z") return 1;
  return 2;
}

function shannonBits(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}
