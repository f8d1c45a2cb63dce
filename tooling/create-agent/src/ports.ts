import { CONTRACT_PORTS } from "@switchboard/contract";
import { parse } from "yaml";

/** New agents get ports after the contract table's (8000–8016), so CAIPE's ports stay free. */
export const FIRST_FREE_PORT = 8017;
const MIN_PORT = 1024;
const MAX_PORT = 65535;

/** Published ports of every compose service: port → service. */
export function composePorts(composeText: string): Map<number, string> {
  const document = (parse(composeText) ?? {}) as { services?: Record<string, { ports?: unknown[] }> };
  const used = new Map<number, string>();
  for (const [service, { ports = [] } = {}] of Object.entries(document.services ?? {})) {
    for (const port of ports) {
      const published =
        typeof port === "object" && port !== null
          ? (port as { published?: unknown }).published
          : String(port).split(":").at(-2);
      const number = Number(String(published ?? "").split("-")[0]);
      if (Number.isInteger(number) && number > 0) used.set(number, `service ${service}`);
    }
  }
  return used;
}

/**
 * Every port a new agent must not take: the contract ports (docs/CONTRACT.md; except the agent's own),
 * ports published in docker-compose.dev.yaml, and other agent packages' ports.
 */
export function portsInUse(
  name: string,
  composeText: string,
  agents: ReadonlyArray<{ name: string; port?: number | undefined }>,
): Map<number, string> {
  const used = new Map<number, string>();
  for (const [agent, port] of Object.entries(CONTRACT_PORTS)) {
    if (agent !== name) used.set(port, `the ${agent} agent's contract port (docs/CONTRACT.md)`);
  }
  for (const agent of agents) {
    if (agent.port !== undefined && agent.name !== name) used.set(agent.port, `agents/${agent.name}`);
  }
  for (const [port, who] of composePorts(composeText)) used.set(port, who);
  return used;
}

/**
 * The port for a new agent: its contract port if the contract lists its name, else the one asked for,
 * else the first free one from 8017. Throws a message naming the conflict.
 */
export function choosePort(name: string, requested: number | undefined, used: Map<number, string>): number {
  const contract = CONTRACT_PORTS[name];
  if (contract !== undefined) {
    if (requested !== undefined && requested !== contract) {
      throw new Error(
        `The ${name} agent's port is ${contract} by the contract (docs/CONTRACT.md); leave --port out or pass --port ${contract}.`,
      );
    }
    const holder = used.get(contract);
    if (holder) throw new Error(`Port ${contract} (the ${name} contract port) is already used by ${holder}.`);
    return contract;
  }
  if (requested !== undefined) {
    if (!Number.isInteger(requested) || requested < MIN_PORT || requested > MAX_PORT) {
      throw new Error(`Port ${requested} is not valid: use a whole number from ${MIN_PORT} to ${MAX_PORT}.`);
    }
    const holder = used.get(requested);
    if (holder)
      throw new Error(`Port ${requested} is already used by ${holder}; pick another or leave --port out.`);
    return requested;
  }
  let port = FIRST_FREE_PORT;
  while (used.has(port)) port += 1;
  return port;
}
