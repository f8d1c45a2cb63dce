import { describe, expect, it } from "vitest";
import { readNetUtilsSettings } from "./env.js";
import { arpaName } from "./probes/dns.js";
import { netUtilsTools } from "./tools.js";

// What each check tells the policy it acts on: nothing is called.
const tools = netUtilsTools(readNetUtilsSettings({}));
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("NetUtils tools name the host a check acts on", () => {
  it("names the host in lower case without a trailing dot, for every check", () => {
    expect(resourceOf("dns_lookup", { host: "Example.COM." })).toEqual({ host: "example.com" });
    expect(resourceOf("reverse_dns_lookup", { address: "93.184.216.34" })).toEqual({ host: "93.184.216.34" });
    expect(resourceOf("ping_host", { host: "example.com" })).toEqual({ host: "example.com" });
    expect(resourceOf("traceroute", { host: "[2001:db8::1]" })).toEqual({ host: "2001:db8::1" });
    expect(resourceOf("check_port", { host: "example.com", port: 22 })).toEqual({ host: "example.com" });
    expect(resourceOf("tls_certificate", { host: "Example.com" })).toEqual({ host: "example.com" });
    expect(resourceOf("whois_lookup", { query: "Example.org" })).toEqual({ host: "example.org" });
  });

  it("names a URL's host for HTTP requests", () => {
    expect(resourceOf("http_request", { url: "https://Status.Example.com:8443/health?x=1" })).toEqual({
      host: "status.example.com",
    });
  });

  it("changes nothing, so no check asks first", () => {
    expect(tools.map((one) => one.tool.name)).toEqual([
      "dns_lookup",
      "reverse_dns_lookup",
      "ping_host",
      "traceroute",
      "check_port",
      "http_request",
      "tls_certificate",
      "whois_lookup",
    ]);
    expect(tools.filter((one) => one.confirm)).toEqual([]);
  });
});

describe("NetUtils settings", () => {
  it("takes CAIPE's limits and refuses a bad value by name", () => {
    const settings = readNetUtilsSettings({
      MAX_PING_COUNT: "3",
      CURL_TIMEOUT: "2",
      NETUTILS_WHOIS_SERVER: "127.0.0.1:4343",
    });
    expect(settings).toMatchObject({
      maxPingCount: 3,
      timeoutMs: 2000,
      whoisServer: { host: "127.0.0.1", port: 4343 },
    });
    expect(() => readNetUtilsSettings({ MAX_TRACEROUTE_HOPS: "lots" })).toThrow(
      'MAX_TRACEROUTE_HOPS="lots" is not a whole number from 1 to 64.',
    );
    expect(() => readNetUtilsSettings({ NETUTILS_ALLOW_PRIVATE_NETWORKS: "yes" })).toThrow(
      "NETUTILS_ALLOW_PRIVATE_NETWORKS must be true or false",
    );
  });

  it("asks PTR records under the reverse names", () => {
    expect(arpaName("127.0.0.1")).toBe("1.0.0.127.in-addr.arpa");
    expect(arpaName("2001:db8::1")).toBe(`1.${"0.".repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`);
  });
});
