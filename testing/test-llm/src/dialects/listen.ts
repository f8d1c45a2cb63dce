import type { Server as HttpServer } from "node:http";
import type { Http2Server } from "node:http2";
import { createServer, type Server, type Socket } from "node:net";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * One TCP listener that hands each connection to the HTTP/1.1 server, or to the HTTP/2 server when
 * the client opens with HTTP/2's connection preface (cleartext HTTP/2 with prior knowledge, as the
 * AWS SDK speaks to an http:// endpoint).
 */
export function dualProtocolListener(
  http1: HttpServer,
  http2: Http2Server,
): Server & { closeAllConnections(): void } {
  const sockets = new Set<Socket>();
  // noDelay as http.createServer sets it: without it, streamed chunks wait for delayed ACKs (~40 ms).
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.once("readable", () => {
      const head: Buffer | null =
        socket.read(Math.min(PREFACE.length, socket.readableLength)) ?? socket.read();
      if (head === null) {
        socket.destroy();
        return;
      }
      socket.unshift(head);
      const h2 =
        head.length >= 3 &&
        PREFACE.subarray(0, Math.min(head.length, PREFACE.length)).equals(
          head.subarray(0, Math.min(head.length, PREFACE.length)),
        );
      (h2 ? http2 : http1).emit("connection", socket);
    });
  });
  server.once("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  return Object.assign(server, {
    /** Destroys every open connection (HTTP/1.1 and HTTP/2), as close() alone waits for them. */
    closeAllConnections() {
      for (const socket of sockets) socket.destroy();
    },
  });
}
