import type { Address } from "../targets.js";
import { findProgram, runProgram } from "./programs.js";

/**
 * Traceroute reads the ICMP "time exceeded" answers of the routers on the way, which takes a raw
 * socket or Linux's IP_RECVERR on a datagram socket: Node offers neither. So the system's
 * `traceroute` (or `tracepath`, which needs no privileges) is run on the checked address when one is
 * installed; otherwise the answer says so and what to install.
 */
export async function traceroute(
  host: string,
  target: Address,
  maxHops: number,
  timeoutMs: number,
): Promise<string> {
  const where = `${host}${host === target.address ? "" : ` (${target.address})`}`;
  const traceroute = await findProgram("traceroute");
  if (traceroute) {
    const args = [
      "-n",
      "-m",
      String(maxHops),
      "-w",
      "2",
      ...(target.family === 6 ? ["-6"] : []),
      target.address,
    ];
    const { output } = await runProgram(traceroute, args, Math.max(timeoutMs, maxHops * 3 * 2000));
    return `traceroute to ${where}, at most ${maxHops} hops:\n${output}`;
  }
  const tracepath = await findProgram("tracepath");
  if (tracepath) {
    const args = ["-n", "-m", String(maxHops), ...(target.family === 6 ? ["-6"] : []), target.address];
    const { output } = await runProgram(tracepath, args, Math.max(timeoutMs, maxHops * 3000));
    return `tracepath to ${where}, at most ${maxHops} hops:\n${output}`;
  }
  return (
    `Traceroute to ${where} is not possible here: it needs the system traceroute or tracepath program ` +
    "(neither is installed where this agent runs), since reading the routers' ICMP answers takes a raw " +
    "socket that Node cannot open. Install the traceroute or iputils-tracepath package in the agent's " +
    "image, or use ping_host and check_port to test reachability."
  );
}
