import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { VENDOR_APIS } from "@switchboard/eval";

/**
 * Every vendor no fake stands in for points at one local server that answers 503, with
 * placeholder credentials so its agent starts: the bench never reaches a real vendor, and a case's
 * tool call still costs the model the calls a real answer would. NetUtils (which checks real hosts)
 * and the configured-agents host stay off.
 */
export async function startNoVendor(faked: readonly string[]) {
  const server = createServer((_request, response) => {
    response
      .writeHead(503, { "content-type": "application/json" })
      .end(JSON.stringify({ message: "This vendor is not faked in bench:eval." }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = {
    GITLAB_HOST: url,
    GITLAB_TOKEN: "bench-placeholder",
    ENABLE_NETUTILS: "false",
    DYNAMIC_AGENTS_ENABLED: "false",
  };
  for (const [vendor, api] of Object.entries(VENDOR_APIS)) {
    if (faked.includes(vendor)) continue;
    env[api.url] = url;
    for (const name of api.credentials)
      env[name] = name.includes("EMAIL") ? "bench@example.com" : "bench-placeholder";
  }
  return {
    env,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
