import type { AgentDefinition } from "@switchboard/agent-runtime";
import { readNetUtilsSettings } from "./env.js";
import { NETUTILS_PROMPT } from "./prompt.js";
import { netUtilsTools } from "./tools.js";

export const netutilsAgent: AgentDefinition = {
  name: "netutils",
  title: "NetUtils",
  description:
    "Network checks: DNS and reverse DNS, ping, traceroute, port checks, HTTP HEAD/GET, TLS certificates and their expiry, WHOIS.",
  systemPrompt: NETUTILS_PROMPT,
  skills: [
    {
      id: "netutils_dns",
      name: "DNS and WHOIS",
      description: "Look up DNS records and reverse DNS; WHOIS for domains, addresses and AS numbers.",
      tags: ["dns", "reverse dns", "whois", "mx", "domain"],
      examples: ["What are the MX records of example.com?", "Who is the registrar of example.com?"],
    },
    {
      id: "netutils_reachability",
      name: "Reachability and certificates",
      description:
        "Ping, traceroute, check a TCP port, send HTTP HEAD/GET, read a TLS certificate and its expiry.",
      tags: ["ping", "traceroute", "port", "http", "tls", "certificate", "expiry"],
      examples: ["Is port 443 open on example.com?", "When does the certificate of example.com expire?"],
    },
  ],
  tools: (env) => netUtilsTools(readNetUtilsSettings(env)),
};
