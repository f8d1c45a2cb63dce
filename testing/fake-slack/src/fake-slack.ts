import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import {
  blockActions,
  ephemeralBlockActions,
  eventCallback,
  newEventId,
  type SlackEvent,
} from "./payloads.js";
import { type ApiCall, answerWebApi } from "./web-api.js";
import { type Ephemeral, type SlackMessage, type SlackUser, Workspace } from "./workspace.js";

export interface FakeSlackOptions {
  botToken?: string;
  appToken?: string;
  users?: SlackUser[];
}

/** What a Socket Mode client answered for an envelope. */
export interface Ack {
  envelopeId: string;
  payload?: unknown;
}

export interface Said {
  /** The new message's timestamp: the thread's when it starts one. */
  ts: string;
  eventIds: string[];
  acks: Ack[];
}

export interface FakeSlack {
  /** The Web API base ending in `/api/`: @slack/web-api's and Bolt's `slackApiUrl`. */
  apiUrl: string;
  botToken: string;
  appToken: string;
  workspace: Workspace;
  /** Every Web API call, oldest first. */
  calls: ApiCall[];
  /** Open Socket Mode connections. */
  connections(): number;
  /** Waits until `count` Socket Mode clients are connected (each got its `hello`). */
  waitForConnections(count: number, timeoutMs?: number): Promise<void>;
  /**
   * A user writes in a channel (or a thread), and Slack tells the app over Socket Mode: the `message`
   * event, and `app_mention` first when the text mentions the bot; each acked before this resolves.
   */
  say(user: string, channel: string, text: string, options?: SayOptions): Promise<Said>;
  /** Delivers one event callback over Socket Mode (to the `connection`-th client) and waits for its ack. */
  deliver(body: unknown, options?: { connection?: number; type?: string }): Promise<Ack>;
  /** A user presses a button of the bot's message, delivered over Socket Mode. */
  press(
    user: string,
    message: SlackMessage,
    actionId: string,
    options?: { connection?: number },
  ): Promise<Ack>;
  /** A user presses a button of an ephemeral message (whoever it was shown to), over Socket Mode. */
  pressEphemeral(
    user: string,
    ephemeral: Ephemeral,
    actionId: string,
    options?: { connection?: number },
  ): Promise<Ack>;
  /** Messages the bot posted in a thread, oldest first. */
  botReplies(channel: string, threadTs: string): SlackMessage[];
  close(): Promise<void>;
}

export interface SayOptions {
  threadTs?: string;
  /** `im` for a direct message with the bot; `channel` otherwise. */
  channelType?: "channel" | "im";
  /** Which Socket Mode client gets the events (Slack picks one per envelope). */
  connection?: number;
}

/**
 * A Slack workspace on loopback for the real Bolt client: the Web API methods a bot calls, and Socket
 * Mode as Slack runs it (apps.connections.open hands out a WebSocket URL; the socket gets `hello`,
 * then envelopes the client must ack by `envelope_id`; pings keep it open). Signed Events API requests
 * for HTTP mode are made by signedRequest (events-api.ts).
 */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botToken = options.botToken ?? "xoxb-switchboard-test";
  const appToken = options.appToken ?? "xapp-switchboard-test";
  const workspace = new Workspace("T0SWITCH", "U0SWITCHBOT");
  for (const user of options.users ?? []) workspace.users.set(user.id, user);
  const calls: ApiCall[] = [];
  const sockets: WebSocket[] = [];
  const pendingAcks = new Map<string, (ack: Ack) => void>();
  const socketServer = new WebSocketServer({ noServer: true });
  let baseUrl = "";

  const server = createServer((request, response) => {
    const method = /^\/api\/([\w.]+)$/.exec(request.url?.split("?")[0] ?? "")?.[1];
    if (request.method !== "POST" || !method) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: false, error: "unknown_method" }));
      return;
    }
    const socketUrl = () => `${baseUrl.replace(/^http/, "ws")}/link/?ticket=${randomUUID()}`;
    answerWebApi({ workspace, botToken, appToken, socketUrl, calls }, method, request).then(
      (answer) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(answer));
      },
      (error: unknown) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ ok: false, error: "invalid_arguments", detail: String(error) }));
      },
    );
  });
  server.on("upgrade", (request, socket, head) => {
    if (!request.url?.startsWith("/link/")) {
      socket.destroy();
      return;
    }
    socketServer.handleUpgrade(request, socket, head, (ws) => {
      sockets.push(ws);
      const ping = setInterval(() => ws.ping(), 5_000);
      ws.on("close", () => {
        clearInterval(ping);
        sockets.splice(sockets.indexOf(ws), 1);
      });
      ws.on("message", (data) => {
        const message = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
        if (message.envelope_id)
          pendingAcks.get(message.envelope_id)?.({
            envelopeId: message.envelope_id,
            payload: message.payload,
          });
      });
      ws.send(
        JSON.stringify({
          type: "hello",
          num_connections: sockets.length,
          debug_info: { host: "fake-slack", approximate_connection_time: 3600 },
          connection_info: { app_id: "A0SWITCHBOARD" },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const deliver: FakeSlack["deliver"] = (body, deliverOptions = {}) => {
    const socket = sockets[deliverOptions.connection ?? 0];
    if (!socket) return Promise.reject(new Error("No Socket Mode client is connected."));
    const envelopeId = randomUUID();
    const type = deliverOptions.type ?? "events_api";
    return new Promise<Ack>((resolve, reject) => {
      const timer = setTimeout(() => {
        pendingAcks.delete(envelopeId);
        reject(new Error(`The envelope ${envelopeId} (${type}) was not acked within 10 s.`));
      }, 10_000);
      pendingAcks.set(envelopeId, (ack) => {
        clearTimeout(timer);
        pendingAcks.delete(envelopeId);
        resolve(ack);
      });
      socket.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          accepts_response_payload: type !== "events_api",
          retry_attempt: 0,
          retry_reason: "",
          payload: body,
        }),
      );
    });
  };

  return {
    apiUrl: `${baseUrl}/api/`,
    botToken,
    appToken,
    workspace,
    calls,
    connections: () => sockets.length,
    waitForConnections: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (sockets.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${sockets.length} of ${count} Socket Mode clients connected.`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    say: async (user, channel, text, sayOptions = {}) => {
      const ts = workspace.nextTs();
      workspace.add({
        channel,
        ts,
        user,
        text,
        ...(sayOptions.threadTs ? { threadTs: sayOptions.threadTs } : {}),
      });
      const base: SlackEvent = {
        type: "message",
        user,
        text,
        ts,
        channel,
        channel_type: sayOptions.channelType ?? "channel",
        ...(sayOptions.threadTs ? { thread_ts: sayOptions.threadTs } : {}),
      };
      const events: SlackEvent[] = [];
      if (text.includes(`<@${workspace.botUserId}>`) && sayOptions.channelType !== "im") {
        const { channel_type: _unused, ...mention } = base;
        events.push({ ...mention, type: "app_mention" });
      }
      events.push(base);
      const eventIds: string[] = [];
      const acks: Ack[] = [];
      for (const event of events) {
        const eventId = newEventId();
        eventIds.push(eventId);
        acks.push(
          await deliver(eventCallback(workspace, event, eventId), {
            ...(sayOptions.connection !== undefined ? { connection: sayOptions.connection } : {}),
          }),
        );
      }
      return { ts, eventIds, acks };
    },
    deliver,
    press: (user, message, actionId, pressOptions = {}) =>
      deliver(blockActions(workspace, user, message, actionId), { ...pressOptions, type: "interactive" }),
    pressEphemeral: (user, ephemeral, actionId, pressOptions = {}) =>
      deliver(ephemeralBlockActions(workspace, user, ephemeral, actionId), {
        ...pressOptions,
        type: "interactive",
      }),
    botReplies: (channel, threadTs) =>
      workspace.thread(channel, threadTs).filter((message) => message.user === workspace.botUserId),
    close: async () => {
      for (const socket of sockets) socket.terminate();
      socketServer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
