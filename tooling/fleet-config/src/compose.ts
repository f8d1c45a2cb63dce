import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AgentPackage,
  envPrefixFor,
  hostUrlVariableFor,
  listFleetPackages,
  SUPERVISOR,
  serviceNameFor,
} from "@switchboard/contract";
import { parse } from "yaml";
import { validateComposeDocument } from "./compose-schema.js";
import { readEnvExample } from "./env-example.js";
import { interpolate, interpolatedNames } from "./interpolate.js";

export const COMPOSE_FILE = "docker-compose.dev.yaml";
export const MONGODB_SERVICE = "mongodb";
export const COMMON_PROFILE = "all-agents";

export interface ComposeService {
  image?: string;
  profiles?: string[];
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, string> | string[] };
  ports?: Array<string | number | { target?: number; published?: string | number }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | Array<string | { path: string; required?: boolean }>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  volumes?: Array<string | { type?: string; source?: string; target?: string; read_only?: boolean }>;
}

export interface ComposeFile {
  text: string;
  document: { services?: Record<string, ComposeService> } & Record<string, unknown>;
}

export function readComposeFile(repoRoot: string): ComposeFile {
  const text = readFileSync(join(repoRoot, COMPOSE_FILE), "utf8");
  return { text, document: parse(text) as ComposeFile["document"] };
}

/** A service's environment as a map (both the map and the `KEY=value` list forms). */
export function environmentOf(service: ComposeService): Map<string, string> {
  const env = service.environment ?? {};
  const entries = Array.isArray(env)
    ? env.map((item): [string, string] => {
        const at = item.indexOf("=");
        return at < 0 ? [item, ""] : [item.slice(0, at), item.slice(at + 1)];
      })
    : Object.entries(env).map(([key, value]): [string, string] => [key, value == null ? "" : String(value)]);
  return new Map(entries);
}

function buildArgs(service: ComposeService): Map<string, string> {
  const args = typeof service.build === "object" ? (service.build.args ?? {}) : {};
  if (Array.isArray(args)) {
    return new Map(args.map((item) => [item.split("=")[0] ?? "", item.split("=").slice(1).join("=")]));
  }
  return new Map(Object.entries(args).map(([key, value]) => [key, String(value)]));
}

/** [published, target] pairs of a service's ports. */
function portsOf(service: ComposeService): Array<[string, string]> {
  return (service.ports ?? []).map((port) => {
    if (typeof port === "object") return [String(port.published ?? ""), String(port.target ?? "")];
    const parts = String(port).split(":");
    const target = parts.at(-1) ?? "";
    return [parts.length > 1 ? (parts.at(-2) ?? "") : "", target.split("/")[0] ?? ""];
  });
}

/** The host:port of a compose MONGODB_URI value as it comes out with no variables set. */
export function mongoHost(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    return new URL(interpolate(uri, {})).host;
  } catch {
    return undefined;
  }
}

/** A service's mounts as [source, target] (short syntax `source:target[:mode]`, variables filled with their defaults). */
function mountsOf(service: ComposeService): Array<[string, string]> {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume === "object") return [volume.source ?? "", volume.target ?? ""];
    const [source = "", target = ""] = interpolate(volume, {}).split(":");
    return [source, target];
  });
}

function healthcheckText(service: ComposeService): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(" ") : (test ?? "");
}

function checkAgentService(
  agent: AgentPackage,
  serviceName: string,
  service: ComposeService,
  repoRoot: string,
): string[] {
  const problems: string[] = [];
  const where = `service ${serviceName} (agents/${agent.folder})`;
  const env = environmentOf(service);
  const port = agent.port;
  const dockerfile =
    typeof service.build === "object" ? (service.build.dockerfile ?? "Dockerfile") : "Dockerfile";
  if (!existsSync(join(repoRoot, dockerfile)))
    problems.push(`${where}: builds with ${dockerfile}, which does not exist.`);

  if (port === undefined) {
    problems.push(
      `agents/${agent.folder}: no port; declare "switchboard": { "port": <port> } in its package.json.`,
    );
  } else {
    const expected = String(port);
    if (env.get("PORT") !== expected)
      problems.push(`${where}: set environment PORT: "${expected}" (its port).`);
    if (buildArgs(service).get("AGENT_PORT") !== expected) {
      problems.push(`${where}: set build arg AGENT_PORT: "${expected}" (the image EXPOSEs it).`);
    }
    if (!portsOf(service).some(([published, target]) => published === expected && target === expected)) {
      problems.push(`${where}: publish "${expected}:${expected}".`);
    }
    if (!healthcheckText(service).includes(`:${expected}/ready`)) {
      problems.push(
        `${where}: its healthcheck must request http://127.0.0.1:${expected}/ready (node fetch; no curl in the node:*-slim image).`,
      );
    }
    const publicUrl = agent.name === SUPERVISOR ? undefined : `http://${serviceName}:${expected}`;
    if (publicUrl && env.get("AGENT_PUBLIC_URL") !== publicUrl) {
      problems.push(
        `${where}: set AGENT_PUBLIC_URL: ${publicUrl} so its card carries the URL the supervisor reaches.`,
      );
    }
    if (!env.get("AGENT_PUBLIC_URL"))
      problems.push(`${where}: set AGENT_PUBLIC_URL so its card carries a reachable URL.`);
  }

  const profiles = service.profiles ?? [];
  for (const profile of [agent.name, COMMON_PROFILE]) {
    if (!profiles.includes(profile)) problems.push(`${where}: add profile "${profile}".`);
  }
  if (mongoHost(env.get("MONGODB_URI")) !== `${MONGODB_SERVICE}:27017`) {
    problems.push(
      `${where}: set MONGODB_URI to the ${MONGODB_SERVICE} service (mongodb://…${MONGODB_SERVICE}:27017).`,
    );
  }
  const dependsOn = service.depends_on;
  const mongoCondition = Array.isArray(dependsOn) ? undefined : dependsOn?.[MONGODB_SERVICE]?.condition;
  if (mongoCondition !== "service_healthy") {
    problems.push(`${where}: depends_on ${MONGODB_SERVICE} with condition: service_healthy.`);
  }
  if (agent.kind === "host") {
    // A host serves the agents its app-config file defines: the file must be there.
    const file = env.get("APP_CONFIG_FILE");
    if (!file) {
      problems.push(
        `${where}: set APP_CONFIG_FILE to where its app-config file is mounted (e.g. /config/app-config.yaml).`,
      );
    } else {
      const source = mountsOf(service).find(([, target]) => target === file)?.[0];
      if (source === undefined)
        problems.push(`${where}: mount the app-config file at ${file} (APP_CONFIG_FILE), read-only.`);
      else if (source.startsWith(".") && !existsSync(join(repoRoot, source)))
        problems.push(
          `${where}: it mounts ${source} by default, which does not exist; name a file of this repository.`,
        );
    }
  }
  const envFiles = Array.isArray(service.env_file)
    ? service.env_file
    : service.env_file
      ? [service.env_file]
      : [];
  if (!envFiles.some((file) => typeof file === "object" && file.path === ".env" && file.required === false)) {
    problems.push(`${where}: add env_file { path: .env, required: false } (credentials, optional).`);
  }
  return problems;
}

function checkSupervisorWiring(
  services: Record<string, ComposeService>,
  agents: AgentPackage[],
  hosts: AgentPackage[],
): string[] {
  const supervisor = services[serviceNameFor(SUPERVISOR)];
  if (!supervisor) return [];
  const problems: string[] = [];
  const env = environmentOf(supervisor);
  // A host's agents join the roster from <HOST>_URL/agents; ENABLE_<HOST> would take the host for one agent.
  for (const host of hosts) {
    const variable = hostUrlVariableFor(host.name);
    const url = `http://${serviceNameFor(host.name, host.kind)}:${host.port}`;
    if (env.get(variable) !== url) {
      problems.push(
        `service supervisor: set ${variable}: ${url} (its configured agents join the roster from ${url}/agents).`,
      );
    }
    const prefix = envPrefixFor(host.name);
    for (const wrong of [`ENABLE_${prefix}`, `${prefix}_AGENT_URL`]) {
      if (env.has(wrong)) {
        problems.push(
          `service supervisor: remove ${wrong}: agents/${host.folder} is a host of configured agents, not one agent; the supervisor finds them through ${variable}.`,
        );
      }
    }
  }
  const hostPrefixes = new Set(hosts.map((host) => envPrefixFor(host.name)));
  for (const agent of agents.filter((candidate) => candidate.name !== SUPERVISOR)) {
    const prefix = envPrefixFor(agent.name);
    const serviceName = serviceNameFor(agent.name);
    const port = agent.port;
    if (env.get(`ENABLE_${prefix}`) !== "true")
      problems.push(`service supervisor: set ENABLE_${prefix}: "true".`);
    if (env.get(`${prefix}_AGENT_URL`) !== `http://${serviceName}:${port}`) {
      problems.push(`service supervisor: set ${prefix}_AGENT_URL: http://${serviceName}:${port}.`);
    }
  }
  for (const [key, value] of env) {
    const prefix = /^([A-Z0-9_]+)_AGENT_URL$/.exec(key)?.[1];
    if (!prefix || hostPrefixes.has(prefix)) continue;
    const host = /^https?:\/\/([^:/]+)/.exec(value)?.[1];
    if (!host || !services[host])
      problems.push(`service supervisor: ${key}=${value} names no service of this file.`);
    if (env.get(`ENABLE_${prefix}`) !== "true")
      problems.push(`service supervisor: ${key} is set but ENABLE_${prefix} is not "true".`);
  }
  const prefixes = new Set(agents.map((agent) => envPrefixFor(agent.name)));
  for (const key of env.keys()) {
    const prefix = /^ENABLE_([A-Z0-9_]+)$/.exec(key)?.[1];
    if (prefix && !prefixes.has(prefix) && !hostPrefixes.has(prefix)) {
      problems.push(
        `service supervisor: ${key} enables an agent with no package under agents/; remove it and ${prefix}_AGENT_URL.`,
      );
    }
  }
  return problems;
}

/**
 * Checks docker-compose.dev.yaml against the workspace: valid Compose, one service per package under
 * agents/ (each agent, and each host of configured agents with its app-config file mounted) on its
 * contract port with its profiles, MongoDB wiring, healthchecks on /ready, the supervisor's subagent
 * and host URLs, and every variable it references documented in .env.example.
 * Returns one line per problem, each naming the fix; an empty list means the file is right.
 */
export function checkCompose(repoRoot: string): string[] {
  let compose: ComposeFile;
  try {
    compose = readComposeFile(repoRoot);
  } catch (error) {
    return [
      `${COMPOSE_FILE} cannot be read as YAML: ${error instanceof Error ? error.message : String(error)}`,
    ];
  }
  const problems = validateComposeDocument(compose.document);
  const services = compose.document.services ?? {};
  const packages = listFleetPackages(repoRoot);
  const agents = packages.filter((candidate) => candidate.kind === "agent");
  const hosts = packages.filter((candidate) => candidate.kind === "host");

  const mongodb = services[MONGODB_SERVICE];
  if (!mongodb) problems.push(`Add a ${MONGODB_SERVICE} service (image mongo:7).`);
  else if (!mongodb.healthcheck)
    problems.push(`service ${MONGODB_SERVICE}: add a healthcheck (agents wait for it).`);

  const builtBy = new Map<string, string[]>();
  for (const [name, service] of Object.entries(services)) {
    if (!service.build) continue;
    // A tool with an image of its own (the web chat) names its folder under tools/ in APP.
    const app = buildArgs(service).get("APP");
    if (app) {
      if (!existsSync(join(repoRoot, "tools", app, "package.json")))
        problems.push(`service ${name}: build arg APP=${app} names no package under tools/.`);
      continue;
    }
    const folder = buildArgs(service).get("AGENT");
    if (!folder || !existsSync(join(repoRoot, "agents", folder, "package.json"))) {
      problems.push(
        `service ${name}: build arg AGENT=${folder ?? "(unset)"} names no package under agents/.`,
      );
      continue;
    }
    builtBy.set(folder, [...(builtBy.get(folder) ?? []), name]);
  }
  for (const agent of packages) {
    const expectedName = serviceNameFor(agent.name, agent.kind);
    const built = builtBy.get(agent.folder) ?? [];
    if (built.length !== 1) {
      problems.push(
        `agents/${agent.folder} needs exactly one service in ${COMPOSE_FILE}, found ${built.length} (${built.join(", ") || "none"}); expected "${expectedName}".`,
      );
      continue;
    }
    const [serviceName = ""] = built;
    if (serviceName !== expectedName) problems.push(`service ${serviceName}: name it "${expectedName}".`);
    const service = services[serviceName];
    if (service) problems.push(...checkAgentService(agent, serviceName, service, repoRoot));
  }

  const published = new Map<string, string>();
  for (const [name, service] of Object.entries(services)) {
    for (const [port] of portsOf(service)) {
      if (!port) continue;
      const other = published.get(port);
      if (other) problems.push(`Port ${port} is published by both ${other} and ${name}.`);
      published.set(port, name);
    }
  }
  problems.push(...checkSupervisorWiring(services, agents, hosts));

  const documented = readEnvExample(repoRoot).variables;
  const referenced = new Set(interpolatedNames(compose.text));
  for (const service of Object.values(services))
    for (const key of environmentOf(service).keys()) referenced.add(key);
  for (const name of [...referenced].sort()) {
    if (!documented.has(name)) problems.push(`${COMPOSE_FILE} uses ${name}; document it in .env.example.`);
  }
  return problems;
}
