import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** templates/ beside dist/ (and src/): one folder per kind of thing the generator makes. */
export const TEMPLATES_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), "templates");

/** What `{{key}}` placeholders in the templates stand for. */
export type TemplateValues = Record<string, string>;

/** The names a template uses for an agent, derived from its name once so every file agrees. */
export function agentTemplateValues(options: {
  name: string;
  port: number;
  description: string;
}): TemplateValues {
  const { name, port, description } = options;
  const words = name.split("-").filter(Boolean);
  const capitalized = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  const title = capitalized.join(" ");
  return {
    name,
    title,
    titleJson: JSON.stringify(title),
    Pascal: capitalized.join(""),
    camel: (words[0] ?? "") + capitalized.slice(1).join(""),
    snake: words.join("_"),
    ENV: words.join("_").toUpperCase(),
    port: String(port),
    // A2A over gRPC's port: the runtime's default A2A_GRPC_PORT, PORT + 1000.
    grpcPort: String(port + 1000),
    description,
    descriptionJson: JSON.stringify(description),
    itemsSkillJson: JSON.stringify(`${title} items`),
    changesSkillJson: JSON.stringify(`${title} changes`),
  };
}

/** Replaces every `{{key}}`; an unknown key is a bug in a template, so it throws rather than guess. */
export function renderTemplate(text: string, values: TemplateValues, where = "template"): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${where}: unknown placeholder {{${key}}}`);
    return value;
  });
}

/**
 * Renders every file of templates/<kind>/ (names end in `.tmpl` so no tool mistakes a template for
 * code; placeholders may stand in paths too). Returns repo-style relative paths and contents.
 */
export function renderTemplateDir(kind: string, values: TemplateValues): Map<string, string> {
  const root = join(TEMPLATES_DIR, kind);
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".tmpl")) {
        const target = renderTemplate(relative(root, path).slice(0, -".tmpl".length), values, path);
        files.set(target.split(sep).join("/"), renderTemplate(readFileSync(path, "utf8"), values, path));
      }
    }
  };
  walk(root);
  return files;
}
