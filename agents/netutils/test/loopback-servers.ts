import { execFileSync } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import * as packet from "dns-packet";

/** The name the test DNS server gives to 127.0.0.1 (and the TLS certificate is for). */
export const SITE = "status.example.test";
/** A name the test DNS server points at a private address. */
export const INSIDE = "inside.example.test";

/**
 * Servers on loopback that NetUtils checks: HTTP, TLS with a self-signed certificate for SITE, a
 * DNS server (UDP) for example.test, a WHOIS server (TCP, RFC 3912), and a port nothing listens on.
 */
export interface LoopbackNet {
  http: { port: number; requests: Array<{ method: string; path: string }> };
  tls: { port: number };
  dns: { port: number; queries: string[] };
  whois: { port: number; queries: string[] };
  closedPort: number;
  close(): Promise<void>;
}

const listen = async (server: Server | ReturnType<typeof createHttpServer>) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};
const closeServer = (server: Server | ReturnType<typeof createHttpServer>) =>
  new Promise<void>((resolve) => server.close(() => resolve()));

/** A self-signed certificate for SITE, valid 30 days, made with the system's openssl. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "netutils-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "30",
        "-subj",
        `/O=Loopback Test/CN=${SITE}`,
        "-addext",
        `subjectAltName=DNS:${SITE}`,
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ZONE: Record<string, packet.Answer[]> = {
  [`A ${SITE}`]: [{ type: "A", name: SITE, ttl: 60, data: "127.0.0.1" }],
  [`A ${INSIDE}`]: [{ type: "A", name: INSIDE, ttl: 60, data: "10.0.0.7" }],
  "MX example.test": [
    { type: "MX", name: "example.test", ttl: 60, data: { preference: 10, exchange: "mail.example.test" } },
  ],
  "PTR 1.0.0.127.in-addr.arpa": [{ type: "PTR", name: "1.0.0.127.in-addr.arpa", ttl: 60, data: SITE }],
};
const NAMES = new Set(Object.keys(ZONE).map((key) => key.split(" ")[1]));

export async function startLoopbackNet(): Promise<LoopbackNet> {
  const requests: LoopbackNet["http"]["requests"] = [];
  const http = createHttpServer((request, response) => {
    requests.push({ method: request.method ?? "", path: request.url ?? "" });
    response
      .writeHead(200, { "content-type": "text/plain", server: "loopback-test" })
      .end("all systems go\n");
  });

  const tls = createTlsServer(selfSignedCertificate(), (socket) => socket.end());

  const dnsQueries: string[] = [];
  const dns = createSocket("udp4");
  dns.on("message", (message, peer) => {
    const query = packet.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const key = `${question.type} ${question.name.toLowerCase()}`;
    dnsQueries.push(key);
    const answers = ZONE[key] ?? [];
    const exists = NAMES.has(question.name.toLowerCase());
    const reply = packet.encode({
      id: query.id,
      type: "response",
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (exists ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers,
    });
    dns.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => dns.bind(0, "127.0.0.1", resolve));

  const whoisQueries: string[] = [];
  const whois = createTcpServer((socket) => {
    socket.setEncoding("utf8");
    socket.once("data", (line: string) => {
      whoisQueries.push(line.trim());
      socket.end(
        [
          "% Loopback WHOIS server, for tests",
          `Domain Name: ${line.trim().toUpperCase()}`,
          "Registrar: Loopback Registrar Inc.",
          "Creation Date: 2001-02-03T04:05:06Z",
          "Registry Expiry Date: 2031-02-03T04:05:06Z",
          "Name Server: NS1.EXAMPLE.TEST",
          "",
        ].join("\r\n"),
      );
    });
  });

  const unused = createTcpServer();
  const closedPort = await listen(unused);
  await closeServer(unused);

  const [httpPort, tlsPort, whoisPort] = await Promise.all([listen(http), listen(tls), listen(whois)]);
  return {
    http: { port: httpPort, requests },
    tls: { port: tlsPort },
    dns: { port: (dns.address() as AddressInfo).port, queries: dnsQueries },
    whois: { port: whoisPort, queries: whoisQueries },
    closedPort,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        closeServer(http),
        closeServer(tls),
        closeServer(whois),
        new Promise<void>((resolve) => dns.close(() => resolve())),
      ]);
    },
  };
}
