// What secretlint's rules leave to us: keys without a vendor format said in words ("my password is
// …"), and AWS access key ids alone (its AWS rule wants the secret beside them).
const STATED_SECRET =
  /\b(password|passwd|passphrase|secret|token|api[ _-]?key|access[ _-]?key|private[ _-]?key|client[ _-]?secret|credentials?)\s*(?:is|was|=|:)\s*["']?[^\s"']{4,}/i;
const AWS_KEY_ID = /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/**
 * Why `text` must not be stored (a token, password or key in it), or undefined when it looks clean.
 * secretlint's recommended rules (GitHub, Slack, AWS, GCP, OpenAI, Anthropic, npm tokens, private
 * keys, basic-auth URLs, database connection strings, …) first, then a secret stated in words.
 * secretlint loads when the first text gets past the quick checks, not at the agent's start.
 */
export async function findSecret(text: string): Promise<string | undefined> {
  if (PRIVATE_KEY.test(text)) return "a private key";
  if (AWS_KEY_ID.test(text)) return "an AWS access key id";
  const stated = STATED_SECRET.exec(text);
  if (stated) return `a ${stated[1]?.toLowerCase()}`;
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
