import { createServer } from "node:http";
import { listenHttp } from "@switchboard/common";
import type { Listening } from "./sdk-agent.js";

/**
 * Serves the cards of the agents at `upstream` with their gRPC interfaces listed first: an agent
 * whose card prefers gRPC, as another stack's might. The card is read as the caller (its
 * authorization passed on), and a refusal is passed on as it came.
 */
export async function startGrpcFirstCards(upstream: string): Promise<Listening> {
  const cards = createServer(async (req, res) => {
    const answer = await fetch(`${upstream}${req.url}`, {
      headers: req.headers.authorization ? { authorization: req.headers.authorization } : {},
    });
    if (!answer.ok) {
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
      return;
    }
    const card = (await answer.json()) as { supportedInterfaces: Array<{ protocolBinding: string }> };
    const grpcFirst = [...card.supportedInterfaces].sort(
      (a, b) => Number(b.protocolBinding === "GRPC") - Number(a.protocolBinding === "GRPC"),
    );
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ ...card, supportedInterfaces: grpcFirst }));
  });
  const port = await listenHttp(cards, 0, "127.0.0.1");
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => cards.close(() => resolve())),
  };
}
