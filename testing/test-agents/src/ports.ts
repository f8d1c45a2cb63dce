import { createServer } from "node:net";

/** A loopback port that was free a moment ago: for agents that must keep their URL across restarts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("The system gave no port.");
  return address.port;
}
