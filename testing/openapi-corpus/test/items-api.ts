import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The example API a freshly generated agent calls (GET /items), with a bearer token. */
export async function startItemsApi(token: string) {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.headers.authorization !== `Bearer ${token}`) return response.writeHead(401).end("{}");
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify([{ id: "7", name: "Status page for the EU region", status: "open" }]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
