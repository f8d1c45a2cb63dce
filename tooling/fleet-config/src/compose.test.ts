// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold Compose and TypeScript source, ${} included.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { CONTRACT_PORTS, listAgentPackages } from "@switchboard/contract";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fleetFixture, repoRoot } from "../test/fixture.js";
import { checkCompose, environmentOf, readComposeFile } from "./compose.js";
import { validateComposeDocument } from "./compose-schema.js";
import { interpolate } from "./interpolate.js";

let fixture: ReturnType<typeof fleetFixture> | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

describe("docker-compose.dev.yaml in this repository", () => {
  it("passes every fleet check", () => {
    expect(checkCompose(repoRoot)).toEqual([]);
  });

  it("is valid against the Compose Specification schema", () => {
    const { document } = readComposeFile(repoRoot);
    expect(validateComposeDocument(document)).toEqual([]);
  });

  it("runs every agent package on its contract port, once", () => {
    const { document } = readComposeFile(repoRoot);
    const services = document.services ?? {};
    for (const agent of listAgentPackages(repoRoot)) {
      const name = agent.name === "supervisor" ? "supervisor" : `agent-${agent.name}`;
      const port = String(CONTRACT_PORTS[agent.name]);
      // A2A over gRPC beside HTTP, on the runtime's default A2A_GRPC_PORT (PORT + 1000).
      const grpc = String(Number(port) + 1000);
      expect(services[name]?.ports, name).toEqual([`${port}:${port}`, `${grpc}:${grpc}`]);
      expect(environmentOf(services[name] ?? {}).get("PORT"), name).toBe(port);
    }
  });

  it("runs the host of configured agents on its port with its app-config file, and points the supervisor at it", () => {
    const services = readComposeFile(repoRoot).document.services ?? {};
    const host = services["dynamic-agents"] ?? {};
    // Its agents over gRPC on one port beside HTTP, by tenant (A2A_GRPC_PORT's default, PORT + 1000).
    expect(host.ports).toEqual(["8100:8100", "9100:9100"]);
    expect(host.profiles).toContain("dynamic-agents");
    expect(host.volumes).toEqual([
      "${APP_CONFIG_FILE:-./tools/fleet/config/app-config.yaml}:/config/app-config.yaml:ro",
    ]);
    expect(environmentOf(host).get("APP_CONFIG_FILE")).toBe("/config/app-config.yaml");
    const supervisor = environmentOf(services.supervisor ?? {});
    expect(supervisor.get("DYNAMIC_AGENTS_URL")).toBe("http://dynamic-agents:8100");
    expect(supervisor.has("ENABLE_DYNAMIC_AGENTS")).toBe(false);
  });

  it("gives the agents a MongoDB URI that works with and without the optional root user", () => {
    const { document } = readComposeFile(repoRoot);
    const uri = environmentOf(document.services?.["agent-jira"] ?? {}).get("MONGODB_URI") ?? "";
    expect(interpolate(uri, {})).toBe("mongodb://mongodb:27017");
    expect(interpolate(uri, { MONGO_INITDB_ROOT_USERNAME: "", MONGO_INITDB_ROOT_PASSWORD: "" })).toBe(
      "mongodb://mongodb:27017",
    );
    expect(
      interpolate(uri, { MONGO_INITDB_ROOT_USERNAME: "root", MONGO_INITDB_ROOT_PASSWORD: "s3cret" }),
    ).toBe("mongodb://root:s3cret@mongodb:27017");
    expect(interpolate(uri, { FLEET_MONGODB_URI: "mongodb://db.example.com:27017/fleet" })).toBe(
      "mongodb://db.example.com:27017/fleet",
    );
  });
});

describe("the Compose schema check", () => {
  it("rejects a service with an unknown key and a malformed port list", () => {
    const problems = validateComposeDocument(
      parse("services:\n  web:\n    image: nginx\n    portz: ['80:80']\n    ports: 80\n"),
    );
    expect(problems.join("\n")).toMatch(/portz/);
    expect(problems.join("\n")).toMatch(/ports/);
  });
});

describe("checkCompose on a changed workspace", () => {
  it("asks for a service when an agent package has none", () => {
    fixture = fleetFixture();
    fixture.edit("agents/status-page/package.json", () =>
      JSON.stringify({ name: "@switchboard/agent-status-page" }),
    );
    expect(checkCompose(fixture.root)).toContain(
      'agents/status-page needs exactly one service in docker-compose.dev.yaml, found 0 (none); expected "agent-status-page".',
    );
  });

  it("reports a service whose agent package was removed", () => {
    fixture = fleetFixture();
    rmSync(join(fixture.root, "agents", "aws"), { recursive: true });
    expect(checkCompose(fixture.root)).toEqual(
      expect.arrayContaining([
        "service agent-aws: build arg AGENT=aws names no package under agents/.",
        "service supervisor: ENABLE_AWS enables an agent with no package under agents/; remove it and AWS_AGENT_URL.",
      ]),
    );
  });

  it("reports a port published twice and a port off the contract", () => {
    fixture = fleetFixture();
    fixture.edit("docker-compose.dev.yaml", (text) => text.replace('"8001:8001"', '"8006:8006"'));
    const problems = checkCompose(fixture.root);
    expect(problems).toContain("Port 8006 is published by both agent-jira and agent-github.");
    expect(problems).toContain('service agent-github (agents/github): publish "8001:8001".');
  });

  it("reports a supervisor URL that names no service and a variable .env.example lacks", () => {
    fixture = fleetFixture();
    fixture.edit("docker-compose.dev.yaml", (text) =>
      text
        .replace("JIRA_AGENT_URL: http://agent-jira:8006", "JIRA_AGENT_URL: http://jira:8006")
        .replace("HOST: 0.0.0.0\n      # Users", "HOST: ${BIND_HOST:-0.0.0.0}\n      # Users"),
    );
    const problems = checkCompose(fixture.root);
    expect(problems).toContain(
      "service supervisor: JIRA_AGENT_URL=http://jira:8006 names no service of this file.",
    );
    expect(problems).toContain("docker-compose.dev.yaml uses BIND_HOST; document it in .env.example.");
  });

  it("reports a host without its app-config file, or unknown to the supervisor", () => {
    fixture = fleetFixture();
    fixture.edit("docker-compose.dev.yaml", (text) =>
      text
        .replace(/^ {6}# The agents made from configuration.*\n {6}DYNAMIC_AGENTS_URL: .*\n/m, "")
        .replace(":/config/app-config.yaml:ro", ":/config/other.yaml:ro"),
    );
    rmSync(join(fixture.root, "tools", "fleet", "config", "app-config.yaml"));
    const problems = checkCompose(fixture.root);
    expect(problems).toEqual(
      expect.arrayContaining([
        "service supervisor: set DYNAMIC_AGENTS_URL: http://dynamic-agents:8100 (its configured agents join the roster from http://dynamic-agents:8100/agents).",
        "service dynamic-agents (agents/dynamic-agents): mount the app-config file at /config/app-config.yaml (APP_CONFIG_FILE), read-only.",
      ]),
    );
    fixture.edit("docker-compose.dev.yaml", (text) =>
      text.replace(":/config/other.yaml:ro", ":/config/app-config.yaml:ro"),
    );
    expect(checkCompose(fixture.root)).toContain(
      "service dynamic-agents (agents/dynamic-agents): it mounts ./tools/fleet/config/app-config.yaml by default, which does not exist; name a file of this repository.",
    );
  });

  it("reports ENABLE_ wiring for a host: it is not one agent", () => {
    fixture = fleetFixture();
    fixture.edit("docker-compose.dev.yaml", (text) =>
      text.replace(
        "      DYNAMIC_AGENTS_URL: http://dynamic-agents:8100\n    depends_on",
        '      DYNAMIC_AGENTS_URL: http://dynamic-agents:8100\n      ENABLE_DYNAMIC_AGENTS: "true"\n    depends_on',
      ),
    );
    expect(checkCompose(fixture.root)).toContain(
      "service supervisor: remove ENABLE_DYNAMIC_AGENTS: agents/dynamic-agents is a host of configured agents, not one agent; the supervisor finds them through DYNAMIC_AGENTS_URL.",
    );
  });

  it("reports an agent without its profiles or a healthcheck on /ready", () => {
    fixture = fleetFixture();
    fixture.edit("docker-compose.dev.yaml", (text) =>
      text
        .replace('profiles: ["jira", "all-agents"]', 'profiles: ["jira"]')
        .replace(":8006/ready", ":8006/health"),
    );
    const problems = checkCompose(fixture.root);
    expect(problems).toContain('service agent-jira (agents/jira): add profile "all-agents".');
    expect(problems.some((problem) => problem.includes("agent-jira") && problem.includes("/ready"))).toBe(
      true,
    );
  });
});
