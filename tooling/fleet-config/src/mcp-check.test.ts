// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the settings hold ${VAR} references on purpose.
import { afterEach, describe, expect, it } from "vitest";
import { fleetFixture, repoRoot } from "../test/fixture.js";
import { checkEnvExample } from "./env-check.js";
import { checkMcpSettings } from "./mcp-check.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function withEnvExample(lines: string) {
  const fixture = fleetFixture();
  cleanups.push(fixture.cleanup);
  fixture.edit(".env.example", (text) => `${text}\n${lines}\n`);
  return fixture.root;
}

describe("the agents' MCP settings in the fleet files", () => {
  it("are documented and sound in this repository", () => {
    expect(checkMcpSettings(repoRoot)).toEqual([]);
  });

  it("accept a sound server list for an agent, with its credential in a variable", () => {
    const root = withEnvExample(
      [
        `JIRA_MCP_SERVERS='{"tickets":{"url":"https://mcp.example.com/mcp","headers":{"Authorization":"Bearer \${TICKETS_TOKEN}"}}}'`,
        "TICKETS_TOKEN=",
        "JIRA_MCP_CONFIRM_TOOLS=search_tickets",
      ].join("\n"),
    );
    expect(checkMcpSettings(root)).toEqual([]);
    expect(checkEnvExample(root).filter((problem) => /_MCP_|TICKETS_TOKEN/.test(problem))).toEqual([]);
  });

  it("name a variable for an agent that does not exist, and the supervisor's", () => {
    const root = withEnvExample("JRIA_MCP_SERVERS=\nSUPERVISOR_MCP_SERVERS=");
    expect(checkMcpSettings(root)).toEqual([
      expect.stringMatching(
        /^\.env\.example: JRIA_MCP_SERVERS is read by no agent \(.*the agents are .*jira/,
      ),
      expect.stringMatching(/^\.env\.example: SUPERVISOR_MCP_SERVERS is read by no agent/),
    ]);
  });

  it("name a server list that does not parse, and the server and field at fault", () => {
    const root = withEnvExample(
      `GITHUB_MCP_SERVERS='{"gh":{"url":"https://x.example.com/mcp","header":{}}}'\nAWS_MCP_SERVERS={oops`,
    );
    const problems = checkMcpSettings(root);
    expect(problems).toContainEqual(expect.stringContaining('.env.example: GITHUB_MCP_SERVERS: server "gh"'));
    expect(problems).toContainEqual(expect.stringContaining(".env.example: AWS_MCP_SERVERS: not JSON"));
  });

  it("refuse a credential written into the list, and an undocumented reference", () => {
    const root = withEnvExample(
      `JIRA_MCP_SERVERS='{"t":{"url":"https://m.example.com/mcp","headers":{"Authorization":"Bearer abc123"}},"m":{"command":"npx","env":{"API_KEY":"\${MISSING_KEY}"}}}'`,
    );
    expect(checkMcpSettings(root)).toEqual([
      '.env.example: JIRA_MCP_SERVERS: server "t" writes Authorization in: refer to a variable (${MY_TOKEN}) kept in a secret instead.',
      '.env.example: JIRA_MCP_SERVERS: server "m" refers to MISSING_KEY; document it in .env.example.',
    ]);
  });

  it("require .env.example to document the per-agent variables", () => {
    const fixture = fleetFixture();
    cleanups.push(fixture.cleanup);
    fixture.edit(".env.example", (text) => text.replaceAll("<AGENT>_MCP_CONFIRM_TOOLS", "the other list"));
    expect(checkMcpSettings(fixture.root)).toEqual([
      ".env.example: document <AGENT>_MCP_CONFIRM_TOOLS (the runtime reads it for every agent).",
    ]);
  });

  it("name an MCP variable set for the host of configured agents, whose tools come from its app-config file", () => {
    const fixture = fleetFixture();
    cleanups.push(fixture.cleanup);
    fixture.edit("charts/switchboard/values.yaml", (text) =>
      text.replace("  port: 8100\n  env: {}", "  port: 8100\n  env:\n    DYNAMIC_AGENTS_MCP_SERVERS: '{}'"),
    );
    expect(checkMcpSettings(fixture.root)).toEqual([
      expect.stringMatching(
        /^charts\/switchboard\/values.yaml dynamicAgents.env: DYNAMIC_AGENTS_MCP_SERVERS is read by no agent/,
      ),
    ]);
  });
});
