import { connect } from "node:net";
import type { Address } from "../targets.js";

export type PortState =
  | { state: "open"; ms: number }
  | { state: "closed" | "filtered" | "unreachable"; detail: string };

/** One TCP connection attempt: open (connected), closed (refused), filtered (no answer in time). */
export function tcpConnect(target: Address, port: number, timeoutMs: number): Promise<PortState> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ host: target.address, port, family: target.family });
    const done = (result: PortState) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ state: "filtered", detail: `no answer in ${Math.round(timeoutMs / 1000)} s` }),
    );
    socket.once("connect", () => done({ state: "open", ms: performance.now() - started }));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(
        error.code === "ECONNREFUSED"
          ? { state: "closed", detail: "connection refused" }
          : { state: "unreachable", detail: error.code ?? error.message },
      ),
    );
  });
}

export function describePort(host: string, target: Address, port: number, result: PortState): string {
  const where = `${host}${host === target.address ? "" : ` (${target.address})`} port ${port}/tcp`;
  if (result.state === "open") return `${where} is open (connected in ${result.ms.toFixed(1)} ms).`;
  return `${where} is ${result.state}: ${result.detail}.`;
}
