import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * Finds the environment variables the code reads, from the TypeScript syntax tree of each
 * non-test source file under `<package>/src`. The rules, kept simple on purpose:
 *  1. `env.NAME` and `process.env.NAME`: a property read on anything called `env` (or `….env`).
 *  2. `env["NAME"]`: an element read on such an object with a string literal; with a template
 *     literal (`env[\`${prefix}_AGENT_URL\`]`) it is a dynamic pattern, each `${…}` standing
 *     for `[A-Z0-9_]+`.
 *  3. `helper(env, "NAME")` / `helper(env, \`…\`)`: a call that passes an env object followed by
 *     string (or template) arguments, as in `value(env, "AWS_REGION")`.
 *  4. `z.object({ NAME: … })`: the upper-case keys of a zod object schema (the env.ts modules).
 *  5. A regular expression literal like /^ENABLE_([A-Z0-9_]+)$/: a dynamic pattern `ENABLE_…`
 *     (how the supervisor finds ENABLE_<AGENT> among all variables).
 *  6. `aliases: { NAME: ["NAME", "OTHER_NAME"] }`: the names in parseEnv's aliases (CAIPE's other
 *     names for one setting, as the agents' env.ts modules give them).
 * Only names in UPPER_SNAKE_CASE count: lower-case ones (npm_package_name) are set by tools, not users.
 */
export interface EnvReads {
  /** Literal variable names, each with the files that read it (repo-relative). */
  names: Map<string, string[]>;
  /** Dynamic patterns (anchored), each with its source form for messages. */
  patterns: Array<{ regex: RegExp; source: string; file: string }>;
}

const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const DYNAMIC_REGEX = /^\/\^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)\(/;

function isEnvObject(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === "env";
  return ts.isPropertyAccessExpression(node) && node.name.text === "env";
}

function templatePattern(node: ts.TemplateExpression): string {
  const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return (
    escapeRegex(node.head.text) +
    node.templateSpans.map((span) => `[A-Z0-9_]+${escapeRegex(span.literal.text)}`).join("")
  );
}

function isZodObjectCall(node: ts.CallExpression): boolean {
  const callee = node.expression;
  return (
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === "object" &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === "z"
  );
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) &&
      !/\.test\.[mc]?[jt]s$/.test(entry.name) &&
      !entry.name.endsWith(".d.ts")
      ? [path]
      : [];
  });
}

/** What one file reads: names and dynamic patterns (pattern, its source form), before any `where`. */
type FileReads = Array<{ name: string } | { pattern: string; source: string }>;

/**
 * Files already parsed, by real path, with the size and modification time they were read at: one
 * scan's answer serves the next over the same files (the scaffolder checks the fleet before and
 * after a change, each check scanning twice, through a view of symlinks to the same files).
 */
export type EnvScanCache = Map<string, { stamp: string; reads: FileReads }>;

/** Scans `src/` of each package folder given (absolute paths), reusing `cache`'s files unchanged since. */
export function scanEnvReads(
  repoRoot: string,
  packageDirs: string[],
  cache: EnvScanCache = new Map(),
): EnvReads {
  const reads: EnvReads = { names: new Map(), patterns: [] };
  for (const file of packageDirs.flatMap((dir) => sourceFiles(join(dir, "src")))) {
    const where = relative(repoRoot, file);
    for (const found of fileReads(file, cache)) {
      if ("name" in found) {
        const files = reads.names.get(found.name) ?? [];
        if (!files.includes(where)) files.push(where);
        reads.names.set(found.name, files);
      } else if (!reads.patterns.some((known) => known.source === found.source)) {
        reads.patterns.push({ regex: new RegExp(`^${found.pattern}$`), source: found.source, file: where });
      }
    }
  }
  return reads;
}

/** One file's reads, from `cache` when the file is unchanged since it was parsed. */
function fileReads(file: string, cache: EnvScanCache): FileReads {
  const real = realpathSync(file);
  const { size, mtimeMs } = statSync(real);
  const stamp = `${size}:${mtimeMs}`;
  const known = cache.get(real);
  if (known?.stamp === stamp) return known.reads;
  const found: FileReads = [];
  const addName = (name: string) => {
    if (VARIABLE.test(name)) found.push({ name });
  };
  const addPattern = (pattern: string, source: string) => {
    found.push({ pattern, source });
  };
  const addArgument = (node: ts.Expression) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) addName(node.text);
    else if (ts.isTemplateExpression(node)) addPattern(templatePattern(node), node.getText());
  };
  const source = ts.createSourceFile(file, readFileSync(real, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isEnvObject(node.expression)) addName(node.name.text);
    else if (ts.isElementAccessExpression(node) && isEnvObject(node.expression))
      addArgument(node.argumentExpression);
    else if (ts.isCallExpression(node)) {
      const envAt = node.arguments.findIndex((argument) => isEnvObject(argument));
      if (envAt >= 0) for (const argument of node.arguments.slice(envAt + 1)) addArgument(argument);
      const schema = node.arguments[0];
      if (isZodObjectCall(node) && schema && ts.isObjectLiteralExpression(schema)) {
        for (const property of schema.properties) {
          if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
            addName(property.name.text);
          }
        }
      }
    } else if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === "aliases" &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      for (const alias of node.initializer.properties) {
        if (!ts.isPropertyAssignment(alias) || !ts.isArrayLiteralExpression(alias.initializer)) continue;
        for (const name of alias.initializer.elements) addArgument(name);
      }
    } else if (ts.isRegularExpressionLiteral(node)) {
      const prefix = DYNAMIC_REGEX.exec(node.text)?.[1];
      if (prefix) addPattern(`${prefix}[A-Z0-9_]+`, node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  cache.set(real, { stamp, reads: found });
  return found;
}
