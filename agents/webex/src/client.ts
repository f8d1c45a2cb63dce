import { requestJson, VendorClient } from "@switchboard/agent-runtime";
import { readWebexSettings, type WebexSettings } from "./env.js";
import type { WebexMembership, WebexMessage, WebexRoom } from "./format.js";

type Items<T> = { items?: T[] };

/** The calls the tools make to Webex's messaging REST API (rooms, messages, memberships). */
export interface WebexApi {
  listRooms(query: { type?: "direct" | "group"; max: number }): Promise<Items<WebexRoom>>;
  getRoom(roomId: string): Promise<WebexRoom>;
  listMessages(query: { roomId: string; parentId?: string; max: number }): Promise<Items<WebexMessage>>;
  listMemberships(roomId: string): Promise<Items<WebexMembership>>;
  postMessage(body: { roomId: string; markdown: string; parentId?: string }): Promise<WebexMessage>;
  createRoom(body: { title: string; teamId?: string }): Promise<WebexRoom>;
  addMembership(body: {
    roomId: string;
    personEmail: string;
    isModerator: boolean;
  }): Promise<WebexMembership>;
}

export type WebexClient = VendorClient<WebexApi, WebexSettings>;

/**
 * Webex's REST API over fetch. Webex's JavaScript SDK (`webex`) is a browser-first bundle of
 * meetings, calling and device plugins, hundreds of packages for the few JSON calls used here;
 * the REST API is what the SDK itself calls for these. The runtime does the rest.
 */
export function webexClient(env: NodeJS.ProcessEnv): WebexClient {
  return new VendorClient(
    {
      vendor: "Webex",
      code: "webex",
      settings: readWebexSettings,
      connect: webexApi,
      names: ({ url }) => ({
        url,
        credentials: "WEBEX_TOKEN",
        address: "WEBEX_API_URL",
        permissionHint:
          "the token's person must be in the room, and a bot needs the spark:messages_write scope",
      }),
      secrets: ({ token }) => [token],
    },
    env,
  );
}

function webexApi({ url, token }: WebexSettings): WebexApi {
  const headers = { authorization: `Bearer ${token}` };
  const get = <T>(path: string, query: Record<string, string | number | undefined> = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const suffix = search.size > 0 ? `?${search}` : "";
    return requestJson<T>({ url: `${url}${path}${suffix}`, headers });
  };
  const post = <T>(path: string, body: object) =>
    requestJson<T>({ method: "POST", url: `${url}${path}`, headers, body });
  return {
    listRooms: ({ type, max }) => get("/rooms", { type, max, sortBy: "lastactivity" }),
    getRoom: (roomId) => get(`/rooms/${encodeURIComponent(roomId)}`),
    listMessages: ({ roomId, parentId, max }) => get("/messages", { roomId, parentId, max }),
    listMemberships: (roomId) => get("/memberships", { roomId, max: 1000 }),
    postMessage: (body) => post("/messages", body),
    createRoom: (body) => post("/rooms", body),
    addMembership: (body) => post("/memberships", body),
  };
}
