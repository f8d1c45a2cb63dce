import { readFileSync } from "node:fs";
import { join } from "node:path";
import { envPrefixFor } from "@switchboard/contract";
import { renderTemplate, TEMPLATES_DIR, type TemplateValues } from "./templates.js";

const SECTION = /^# ---- /;
const HEADER_WIDTH = 100;
const FINAL_SECTION = "# ---- docker-compose.dev.yaml only";

function template(file: string, values: TemplateValues): string[] {
  const text = readFileSync(join(TEMPLATES_DIR, "fleet", file), "utf8");
  return renderTemplate(text, values, file).replace(/\n+$/, "").split("\n");
}

/** `# ---- My Tool agent (agents/my-tool) -----…`, as wide as the file's other section headers. */
export function sectionHeader(title: string, name: string): string {
  const start = `# ---- ${title} agent (agents/${name}) `;
  return start + "-".repeat(Math.max(3, HEADER_WIDTH - start.length));
}

/**
 * Adds the supervisor's ENABLE_<NAME>, <NAME>_AGENT_URL/_HOST/_PORT after the last subagent's, and a
 * section for the agent's own <NAME>_API_URL / <NAME>_API_TOKEN (an MCP-backed agent: <NAME>_MCP_SERVERS)
 * before the docker-compose section.
 */
export function addAgentToEnvExample(
  text: string,
  values: TemplateValues,
  options: { kind?: "api" | "mcp" | "openapi" } = {},
): string {
  const lines = text.split("\n");
  const name = values.name ?? "";
  const wiring = template("env-supervisor.tmpl", values);
  const lastPort = lines.findLastIndex((line) => /^[A-Z0-9_]+_AGENT_PORT=/.test(line));
  if (lastPort < 0) {
    throw new Error(".env.example has no <AGENT>_AGENT_PORT= line to add the supervisor wiring after.");
  }
  lines.splice(lastPort + 1, 0, ...wiring);

  const kind = options.kind ?? "api";
  const section = template(kind === "api" ? "env-agent.tmpl" : `env-agent-${kind}.tmpl`, {
    ...values,
    header: sectionHeader(values.title ?? name, name),
  });
  const before = lines.findIndex((line) => line.startsWith(FINAL_SECTION));
  if (before >= 0) lines.splice(before, 0, ...section, "");
  else {
    while (lines.at(-1) === "") lines.pop();
    lines.push("", ...section, "");
  }
  return lines.join("\n");
}

/** Removes what addAgentToEnvExample added: the wiring lines and the agent's own section. */
export function removeAgentFromEnvExample(text: string, name: string): string {
  const prefix = envPrefixFor(name);
  const wiring = new Set([
    `ENABLE_${prefix}`,
    `${prefix}_AGENT_URL`,
    `${prefix}_AGENT_HOST`,
    `${prefix}_AGENT_PORT`,
  ]);
  let lines = text.split("\n").filter((line) => !wiring.has(line.split("=")[0] ?? ""));
  const marker = `agent (agents/${name}) -`;
  const start = lines.findIndex((line) => SECTION.test(line) && line.includes(marker));
  if (start >= 0) {
    let end = lines.findIndex((line, index) => index > start && SECTION.test(line));
    if (end < 0) end = lines.length;
    lines = [...lines.slice(0, start), ...lines.slice(end)];
    while (lines.length > 1 && lines.at(-1) === "" && lines.at(-2) === "") lines.pop();
  }
  return lines.join("\n");
}

/** The agent's variables (and `more` of its own) that .env.example already has (another agent's, or a leftover). */
export function envExampleClashes(text: string, name: string, more: string[] = []): string[] {
  const prefix = envPrefixFor(name);
  const ours = [
    `ENABLE_${prefix}`,
    `${prefix}_AGENT_URL`,
    `${prefix}_AGENT_HOST`,
    `${prefix}_AGENT_PORT`,
    `${prefix}_API_URL`,
    `${prefix}_API_TOKEN`,
    ...more,
  ];
  const present = new Set(
    text.split("\n").map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line.trim())?.[1]),
  );
  return ours.filter((variable) => present.has(variable));
}
