import type { ServerResponse } from "node:http";

/**
 * Ends the response's connection once it is answered, instead of keeping it alive for more: a
 * draining server leaves no idle keep-alive connection for its final close to cut under a request
 * a client or proxy has just sent on it.
 */
export function closeWithAnswer(res: ServerResponse): void {
  if (!res.headersSent) {
    res.setHeader("connection", "close");
    return;
  }
  // Its headers promised keep-alive (an answer streaming): the socket ends after the answer. Node
  // detaches the socket from the response on "finish", so it is taken now.
  const { socket } = res;
  res.once("finish", () => socket?.end());
}
