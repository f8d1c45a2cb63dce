import type { Address } from "../targets.js";
import { tcpConnect } from "./port.js";
import { findProgram, runProgram } from "./programs.js";

/**
 * Ping: ICMP echo needs a raw (or ICMP datagram) socket, which Node does not open. With the system
 * `ping` program installed (and allowed to send ICMP, as it is set up to be), it is run on the
 * checked address; without it, a TCP connect ping measures how long the host takes to accept a TCP
 * connection on a port (443 by default), and the answer says that is what was measured.
 */
export async function ping(
  host: string,
  target: Address,
  count: number,
  port: number,
  timeoutMs: number,
): Promise<string> {
  const program = await findProgram("ping");
  const where = `${host}${host === target.address ? "" : ` (${target.address})`}`;
  if (program) {
    const waitSeconds = String(Math.max(1, Math.round(timeoutMs / 1000)));
    const args = [
      "-n",
      "-c",
      String(count),
      "-W",
      waitSeconds,
      ...(target.family === 6 ? ["-6"] : []),
      target.address,
    ];
    const { output } = await runProgram(program, args, timeoutMs * (count + 1));
    const summary = output
      .split("\n")
      .filter((line) => /packets transmitted|rtt|round-trip/.test(line))
      .join("\n");
    return `ICMP ping of ${where} (system ping):\n${summary || output.slice(-800)}`;
  }
  const times: number[] = [];
  const failures: string[] = [];
  for (let probe = 0; probe < count; probe++) {
    const result = await tcpConnect(target, port, timeoutMs);
    if (result.state === "open") times.push(result.ms);
    else failures.push(`${result.state} (${result.detail})`);
  }
  const heading =
    `TCP connect ping of ${where} port ${port} (not ICMP: the system ping program is not installed ` +
    "where this agent runs, and ICMP needs a raw socket):";
  const received = `${count} probes, ${times.length} connected, ${failures.length} failed`;
  if (times.length === 0) return `${heading}\n${received}: ${[...new Set(failures)].join(", ")}.`;
  const avg = times.reduce((sum, ms) => sum + ms, 0) / times.length;
  const stats = `min/avg/max ${Math.min(...times).toFixed(1)}/${avg.toFixed(1)}/${Math.max(...times).toFixed(1)} ms`;
  return `${heading}\n${received}; ${stats}.`;
}
