import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentUnderTest, agentConformance } from "@switchboard-testing/agent-conformance";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";
import { INSIDE, type LoopbackNet, SITE, startLoopbackNet } from "./loopback-servers.js";

// NetUtils against servers this file starts on loopback (HTTP, TLS with a self-signed certificate, DNS,
// WHOIS), reachable because NETUTILS_ALLOW_PRIVATE_NETWORKS=true; the last test takes it away.
const ports = (): LoopbackNet => agent.service;
const agent: AgentUnderTest<LoopbackNet> = agentConformance<LoopbackNet>({
  name: "netutils",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["netutils_dns", "netutils_reachability"],
  description: "TLS certificates",
  service: {
    start: startLoopbackNet,
    env: (net) => ({
      NETUTILS_ALLOW_PRIVATE_NETWORKS: "true",
      NETUTILS_DNS_SERVERS: `127.0.0.1:${net.dns.port}`,
      NETUTILS_WHOIS_SERVER: `127.0.0.1:${net.whois.port}`,
      CURL_TIMEOUT: "5",
    }),
    requests: (net) => net.http.requests.length + net.dns.queries.length + net.whois.queries.length,
  },
  llmRules: [
    {
      lastUser: /^look up ([\w.-]+)(?: (\w+))?$/i,
      reply: (_r, { match }) => callTool("dns_lookup", { host: match?.[1], type: match?.[2] ?? "A" }),
    },
    {
      lastUser: /^reverse ([\d.:a-f]+)$/i,
      reply: (_r, { match }) => callTool("reverse_dns_lookup", { address: match?.[1] }),
    },
    {
      lastUser: /^(head|get) (\S+)$/i,
      reply: (_r, { match }) =>
        callTool("http_request", { url: match?.[2], method: match?.[1]?.toUpperCase() }),
    },
    {
      lastUser: /^certificate of ([\w.-]+)$/i,
      reply: (_r, { match }) => callTool("tls_certificate", { host: match?.[1], port: ports().tls.port }),
    },
    {
      lastUser: /^check the (open|closed) port of ([\w.-]+)$/i,
      reply: (_r, { match }) =>
        callTool("check_port", {
          host: match?.[2],
          port: match?.[1] === "open" ? ports().http.port : ports().closedPort,
        }),
    },
    {
      lastUser: /^ping ([\w.-]+)$/i,
      reply: (_r, { match }) =>
        callTool("ping_host", { host: match?.[1], count: 3, port: ports().http.port }),
    },
    {
      lastUser: /^traceroute ([\w.-]+)$/i,
      reply: (_r, { match }) => callTool("traceroute", { host: match?.[1], max_hops: 5 }),
    },
    {
      lastUser: /^whois ([\w.-]+)$/i,
      reply: (_r, { match }) => callTool("whois_lookup", { query: match?.[1] }),
    },
  ],
  fallback: "I run network checks: DNS, ping, traceroute, ports, HTTP, TLS certificates and WHOIS.",
  read: {
    prompt: `look up ${SITE}`,
    answer: [`A records of ${SITE}:`, "127.0.0.1"],
    check: (net) => expect(net.dns.queries).toContain(`A ${SITE}`),
  },
  // NetUtils only reads: there is no change to confirm or decline, and no credential to miss.
  streaming: { prompt: `certificate of ${SITE}`, tool: "tls_certificate", answer: "self-signed" },
});

async function askAll(prompts: string[], env = {}): Promise<string[]> {
  const connection = await agent.connect(env);
  const answers: string[] = [];
  for (const text of prompts) {
    const result = await connection.send({ text, contextId: agent.contextId() });
    expect(result.state, text).toBe("completed");
    answers.push(result.text ?? "");
  }
  return answers;
}

it("runs every check against the loopback servers when private networks are allowed", async () => {
  const net = agent.service;
  const [head, certificate, open, closed, reverse, mx, whois, ping, traceroute] = await askAll([
    `head http://${SITE}:${net.http.port}/health`,
    `certificate of ${SITE}`,
    `check the open port of ${SITE}`,
    "check the closed port of 127.0.0.1",
    "reverse 127.0.0.1",
    "look up example.test MX",
    "whois example.test",
    `ping ${SITE}`,
    `traceroute ${SITE}`,
  ]);
  expect(head).toMatch(new RegExp(`HEAD http://${SITE}:${net.http.port}/health: HTTP 200 in \\d+ ms`));
  expect(head).toContain("server: loopback-test");
  expect(net.http.requests).toContainEqual({ method: "HEAD", path: "/health" });

  expect(certificate).toContain(`subject: ${SITE}`);
  expect(certificate).toContain("issuer: Loopback Test");
  expect(certificate).toMatch(/expires in (29|30) days/);
  expect(certificate).toContain("NOT trusted: self-signed");

  expect(open).toMatch(new RegExp(`${SITE} \\(127\\.0\\.0\\.1\\) port ${net.http.port}/tcp is open`));
  expect(closed).toContain(`127.0.0.1 port ${net.closedPort}/tcp is closed: connection refused`);
  expect(reverse).toContain(`127.0.0.1 is ${SITE}`);
  expect(mx).toContain("10 mail.example.test");

  expect(whois).toContain("Registrar: Loopback Registrar Inc.");
  expect(whois).toContain("Registry Expiry Date: 2031-02-03T04:05:06Z");
  expect(net.whois.queries).toContain("example.test");

  // This machine has no ping program: the agent says it measured TCP connects, not ICMP.
  expect(ping).toMatch(
    /TCP connect ping of status\.example\.test \(127\.0\.0\.1\) port \d+ \(not ICMP|ICMP ping of/,
  );
  expect(ping).toMatch(/3 probes, 3 connected|packets transmitted/);
  expect(traceroute).toMatch(
    /is not possible here: it needs the system traceroute or tracepath|(traceroute|tracepath) to/,
  );
});

it("refuses loopback and private targets without NETUTILS_ALLOW_PRIVATE_NETWORKS, reaching none of them", async () => {
  const net = agent.service;
  const before = net.http.requests.length;
  const [literal, named, inside] = await askAll(
    [`get http://127.0.0.1:${net.http.port}/`, `head http://${SITE}:${net.http.port}/`, `look up ${INSIDE}`],
    { NETUTILS_ALLOW_PRIVATE_NETWORKS: undefined },
  );
  expect(literal).toContain(
    "127.0.0.1 is a loopback, link-local or private address; NetUtils checks go only to public addresses unless NETUTILS_ALLOW_PRIVATE_NETWORKS=true",
  );
  // The name is public-looking: its DNS answer (127.0.0.1) is what the guard refuses.
  expect(named).toContain(
    `${SITE} resolves only to loopback, link-local or private addresses; NetUtils checks go only to public addresses unless NETUTILS_ALLOW_PRIVATE_NETWORKS=true`,
  );
  expect(inside).toContain("1 loopback, link-local or private address withheld");
  expect(inside).not.toContain("10.0.0.7");
  expect(net.http.requests).toHaveLength(before);
});
