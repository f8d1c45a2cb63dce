import { readFileSync } from "node:fs";
import { join } from "node:path";
import { envPrefixFor, serviceNameFor } from "@switchboard/contract";
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  parseDocument,
  type Scalar,
  visit,
  type YAMLMap,
} from "yaml";
import { renderTemplate, TEMPLATES_DIR, type TemplateValues } from "./templates.js";

const MONGODB_URI_ANCHOR = "mongodb-uri";
// The same options the file was written with, so untouched lines come out byte for byte.
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

function parse(text: string): Document {
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    throw new Error(`docker-compose.dev.yaml is not valid YAML: ${document.errors[0]?.message}`);
  }
  return document;
}

function servicesOf(document: Document): YAMLMap {
  const services = document.get("services", true);
  if (!isMap(services)) throw new Error("docker-compose.dev.yaml has no services map.");
  return services;
}

function supervisorEnvironment(services: YAMLMap): YAMLMap | undefined {
  const supervisor = services.get(serviceNameFor("supervisor"), true);
  if (!isMap(supervisor)) return undefined;
  const environment = supervisor.get("environment", true);
  if (environment !== undefined && !isMap(environment)) {
    throw new Error(
      "service supervisor: write its environment as a map (KEY: value) so agents can be added.",
    );
  }
  return environment;
}

/** The node carrying `&mongodb-uri`, so the new service shares it as the others do. */
function mongodbUriAnchor(document: Document): Node | undefined {
  let found: Node | undefined;
  visit(document, (_key, node) => {
    if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor === MONGODB_URI_ANCHOR) {
      found = node;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

function quoted(value: string): Scalar {
  const scalar = parseDocument(JSON.stringify(value)).contents as Scalar;
  scalar.type = "QUOTE_DOUBLE";
  return scalar;
}

export interface ComposeAgent {
  name: string;
  port: number;
}

/**
 * Adds service `agent-<name>` (from templates/fleet/compose-service.yaml.tmpl) after the last
 * service, and ENABLE_<NAME> / <NAME>_AGENT_URL to the supervisor's environment after its last
 * subagent. Comments and formatting of everything else are kept.
 */
export function addAgentToCompose(text: string, agent: ComposeAgent, values: TemplateValues): string {
  const document = parse(text);
  const services = servicesOf(document);
  const serviceName = serviceNameFor(agent.name);
  if (services.has(serviceName))
    throw new Error(`docker-compose.dev.yaml already has a service ${serviceName}.`);

  const template = readFileSync(join(TEMPLATES_DIR, "fleet", "compose-service.yaml.tmpl"), "utf8");
  const snippet = parse(renderTemplate(template, { ...values, mongodbUri: "" }, "compose-service.yaml.tmpl"));
  const [pair] = (snippet.contents as YAMLMap).items;
  if (!pair || !isPair(pair) || !isScalar(pair.key) || !isMap(pair.value)) {
    throw new Error("templates/fleet/compose-service.yaml.tmpl must hold one service.");
  }
  pair.key.spaceBefore = true;
  const environment = pair.value.get("environment", true);
  const anchor = mongodbUriAnchor(document);
  if (isMap(environment) && anchor) environment.set("MONGODB_URI", document.createAlias(anchor as Scalar));
  else if (isMap(environment)) environment.set("MONGODB_URI", quoted("mongodb://mongodb:27017"));
  services.items.push(pair);

  const supervisorEnv = supervisorEnvironment(services);
  if (supervisorEnv) {
    const prefix = envPrefixFor(agent.name);
    const entries = [
      document.createPair(`ENABLE_${prefix}`, quoted("true")),
      document.createPair(`${prefix}_AGENT_URL`, `http://${serviceName}:${agent.port}`),
    ];
    const lastAgentUrl = supervisorEnv.items.findLastIndex(
      (item) => isScalar(item.key) && /_AGENT_URL$/.test(String(item.key.value)),
    );
    const at = lastAgentUrl >= 0 ? lastAgentUrl + 1 : supervisorEnv.items.length;
    supervisorEnv.items.splice(at, 0, ...entries);
  }
  return document.toString(WRITE_OPTIONS);
}

/** Removes service `agent-<name>` and the supervisor's ENABLE_<NAME> / <NAME>_AGENT_* entries. */
export function removeAgentFromCompose(text: string, name: string): string {
  const document = parse(text);
  const services = servicesOf(document);
  services.delete(serviceNameFor(name));
  const supervisorEnv = supervisorEnvironment(services);
  if (supervisorEnv) {
    const prefix = envPrefixFor(name);
    const ours = new Set([
      `ENABLE_${prefix}`,
      `${prefix}_AGENT_URL`,
      `${prefix}_AGENT_HOST`,
      `${prefix}_AGENT_PORT`,
    ]);
    supervisorEnv.items = supervisorEnv.items.filter(
      (item) => !(isScalar(item.key) && ours.has(String(item.key.value))),
    );
  }
  return document.toString(WRITE_OPTIONS);
}

/** Whether the compose file mentions the agent: its service or the supervisor's ENABLE_<NAME>. */
export function composeMentions(text: string, name: string): string | undefined {
  const services = servicesOf(parse(text));
  if (services.has(serviceNameFor(name))) return `service ${serviceNameFor(name)}`;
  const key = `ENABLE_${envPrefixFor(name)}`;
  if (supervisorEnvironment(services)?.has(key)) return `the supervisor's ${key}`;
  return undefined;
}
