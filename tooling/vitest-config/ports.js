import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Where the system hands out ephemeral ports (listen on port 0): from 32768 unless Linux says else. */
function ephemeralStart() {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return Number(low) > 2048 ? Number(low) : 32768;
  } catch {
    return 32768;
  }
}

/** Whether `port` can be listened on at loopback right now (it is freed again at once). */
async function canListen(port) {
  const server = createServer();
  const listening = await new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

/**
 * An agent given PORT serves A2A over gRPC on PORT + 1000 unless told otherwise (agent-runtime's
 * env.ts), so that port must be as safe as the one handed out.
 */
const GRPC_OFFSET = 1000;

/**
 * A loopback port nothing listens on, for a server that starts later, restarts on the same URL, or
 * stays down so that connections to it are refused. It is drawn below the ephemeral range: the
 * many servers that tests running beside each other start on port 0 never land there, so the port
 * stays the test's between its servers' runs. Ports are handed out only from alternate blocks of
 * GRPC_OFFSET ports, so an agent's gRPC port (PORT + 1000) falls in a block no test is ever handed
 * and below the ephemeral range too: it cannot collide with another test's port.
 */
export async function freePort() {
  const end = ephemeralStart() - GRPC_OFFSET;
  const start = Math.max(1024, end - 12288);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = start + Math.floor(Math.random() * (end - start));
    if (Math.floor((port - start) / GRPC_OFFSET) % 2 === 1) continue;
    if ((await canListen(port)) && (await canListen(port + GRPC_OFFSET))) return port;
  }
  throw new Error(`No free loopback port between ${start} and ${end}.`);
}
