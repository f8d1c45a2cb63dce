import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { AGENT_READY } from "@switchboard/contract";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_APP_CONFIG, type Fleet, onlyAgents, startFleet } from "./fleet.js";

// How npm start runs a host of configured agents beside the agents, and whom it points at it. The
// processes are real, on loopback; each is a small server that answers its probes and, at GET /env,
// the settings the fleet started it with: what this package decides (the host's own work is tested
// in agents/dynamic-agents).

/** A process that serves /ready and /env on PORT (0: a free one) and says it is ready as agents do. */
const ECHO_SERVER = `
import { createServer } from "node:http";
const server = createServer((req, res) => {
  if (req.url === "/ready" || req.url === "/health") return res.end("ok");
  if (req.url === "/env") {
    res.setHeader("content-type", "application/json");
    return res.end(JSON.stringify(process.env));
  }
  res.statusCode = 404;
  res.end();
});
server.listen(Number(process.env.PORT || 0), "127.0.0.1", () => {
  const { port } = server.address();
  process.send?.({ type: ${JSON.stringify(AGENT_READY)}, agent: process.env.ECHO_NAME ?? "echo", port, url: "http://127.0.0.1:" + port });
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

/**
 * A repository with a supervisor, one agent, the host and the web chat, each the echo server; with
 * `hostScript`, the host runs that instead.
 */
function repository(hostScript?: string): string {
  const root = scratchDir("fleet-hosts");
  const write = (folder: string, manifest: object) => {
    mkdirSync(join(root, folder, "dist"), { recursive: true });
    writeFileSync(join(root, folder, "package.json"), JSON.stringify(manifest));
    const host = folder === "agents/dynamic-agents" && hostScript;
    writeFileSync(join(root, folder, "dist", "index.js"), host || ECHO_SERVER);
  };
  write("agents/supervisor", {
    name: "@switchboard/supervisor",
    type: "module",
    switchboard: { port: 8000 },
  });
  write("agents/weather", {
    name: "@switchboard/agent-weather",
    type: "module",
    switchboard: { port: 8002 },
  });
  write("agents/dynamic-agents", {
    name: "@switchboard/dynamic-agents",
    type: "module",
    switchboard: { port: 8100, kind: "host" },
  });
  write("tools/web", { name: "@switchboard/web", type: "module" });
  return root;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function envOf(url: string): Promise<Record<string, string>> {
  return (await fetch(`${url}/env`)).json() as Promise<Record<string, string>>;
}

const root = repository();
let fleet: Fleet | undefined;
afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});

/** A fleet on free ports; the host's port from DYNAMIC_AGENTS_URL when `hostPort` is given. */
async function start(env: NodeJS.ProcessEnv, hostPort?: number, at = root): Promise<Fleet> {
  fleet = await startFleet({
    root: at,
    env: {
      PATH: process.env.PATH,
      SUPERVISOR_PORT: String(await freePort()),
      WEATHER_AGENT_PORT: String(await freePort()),
      WEB_PORT: String(await freePort()),
      ...(hostPort ? { DYNAMIC_AGENTS_URL: `http://localhost:${hostPort}` } : {}),
      ...env,
    },
  });
  return fleet;
}

describe("npm start and the host of configured agents", () => {
  it("runs the host with the example app-config, and points the supervisor and the web chat at it", async () => {
    const hostPort = await freePort();
    const { hosts, agents, supervisor, web, failed } = await start({}, hostPort);
    expect(failed).toEqual([]);
    expect(hosts.map(({ name, url }) => ({ name, url }))).toEqual([
      { name: "dynamic-agents", url: `http://localhost:${hostPort}` },
    ]);
    expect(agents.map(({ name }) => name)).toEqual(["weather"]);
    const host = await envOf(hosts[0]?.url ?? "");
    expect(host.APP_CONFIG_FILE).toBe(DEFAULT_APP_CONFIG);
    expect(host.PORT).toBe(String(hostPort));

    const supervisorEnv = await envOf(supervisor.url);
    expect(supervisorEnv.DYNAMIC_AGENTS_URL).toBe(`http://localhost:${hostPort}`);
    expect(supervisorEnv.ENABLE_WEATHER).toBe("true");
    // A host is not one agent: no ENABLE_ wiring for it.
    expect(
      Object.keys(supervisorEnv).filter((name) => /DYNAMIC_AGENTS_AGENT|ENABLE_DYNAMIC/.test(name)),
    ).toEqual([]);
    expect((await envOf(web?.url ?? "")).DYNAMIC_AGENTS_URL).toBe(`http://localhost:${hostPort}`);
  });

  it("reads APP_CONFIG_FILE from .env as CAIPE writes it, relative to the repository", async () => {
    const { hosts } = await start({ APP_CONFIG_FILE: "./config/app-config.local.yaml" });
    expect((await envOf(hosts[0]?.url ?? "")).APP_CONFIG_FILE).toBe(
      join(root, "config", "app-config.local.yaml"),
    );
  });

  it("leaves the host out with CAIPE's DYNAMIC_AGENTS_ENABLED=false, and drops a CAIPE container URL nobody runs", async () => {
    const { hosts, supervisor, web, failed } = await start({
      DYNAMIC_AGENTS_ENABLED: "false",
      // A CAIPE .env written for its containers.
      DYNAMIC_AGENTS_URL: "http://dynamic-agents:8001",
    });
    expect(failed).toEqual([]);
    expect(hosts).toEqual([]);
    expect(await envOf(supervisor.url)).not.toHaveProperty("DYNAMIC_AGENTS_URL");
    expect(await envOf(web?.url ?? "")).not.toHaveProperty("DYNAMIC_AGENTS_URL");
  });

  it("keeps the host out of a fleet of named agents unless it is named", async () => {
    expect(onlyAgents(root, ["weather"])).toEqual({ DYNAMIC_AGENTS_ENABLED: "false" });
    expect(onlyAgents(root, ["dynamic-agents"])).toEqual({ ENABLE_WEATHER: "false" });
    const { hosts, agents } = await start(onlyAgents(root, ["weather"]));
    expect(hosts).toEqual([]);
    expect(agents.map(({ name }) => name)).toEqual(["weather"]);
  });

  it("reports a host that does not start, runs the rest, and points nobody at it", async () => {
    const broken = repository('console.error("APP_CONFIG_FILE: no such file"); process.exit(3);');
    const { hosts, agents, supervisor, failed } = await start({}, undefined, broken);
    expect(hosts).toEqual([]);
    expect(agents.map(({ name }) => name)).toEqual(["weather"]);
    expect(failed).toEqual([
      { name: "dynamic-agents", error: expect.stringMatching(/exited with code 3[\s\S]*no such file/) },
    ]);
    expect(await envOf(supervisor.url)).not.toHaveProperty("DYNAMIC_AGENTS_URL");
  });
});
