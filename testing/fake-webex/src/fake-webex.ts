import { createHmac, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startVendorServer, type VendorApi, VendorHttpError } from "@switchboard-testing/fake-vendors";

type Document = NonNullable<VendorApi["openApi"]>["document"];

type Handler = NonNullable<VendorApi["openApi"]>["operations"][string];
type Ctx = Parameters<Handler>[0];

/** A Webex id as the API writes them: base64 of `ciscospark://us/<KIND>/<uuid>`, unpadded. */
export function webexId(kind: string): string {
  return Buffer.from(`ciscospark://us/${kind}/${randomUUID()}`).toString("base64").replace(/=+$/, "");
}

export interface WebexPerson {
  id: string;
  emails: string[];
  displayName: string;
  orgId: string;
  type: "person" | "bot";
  /** The access token this person's requests carry. */
  token: string;
}

export interface WebexMessage {
  id: string;
  roomId: string;
  roomType: "direct" | "group";
  parentId?: string;
  text: string;
  markdown?: string;
  attachments?: Array<{ contentType: string; content: unknown }>;
  personId: string;
  personEmail: string;
  mentionedPeople?: string[];
  created: string;
  updated?: string;
  /** Every version the message had (edits), oldest first: what tests read for live progress. */
  versions: string[];
  deleted?: boolean;
}

export interface WebexAttachmentAction {
  id: string;
  type: "submit";
  messageId: string;
  inputs: Record<string, unknown>;
  personId: string;
  roomId: string;
  created: string;
}

export interface WebexWebhook {
  id: string;
  name: string;
  targetUrl: string;
  resource: string;
  event: string;
  secret?: string;
  status: "active";
  created: string;
  /** Who registered it (whose events it receives). */
  createdBy: string;
}

/** One webhook request the fake sent, as sent: what replay tests send again. */
export interface Delivery {
  webhookId: string;
  targetUrl: string;
  body: string;
  signature: string | undefined;
  status: number;
  /** Held back (`say(..., { held: true })`): not sent until `release`. */
  held?: boolean;
}

export interface FakeWebex {
  url: string;
  /** The API base, `<url>/v1`, as https://webexapis.com/v1: WEBEX_API_URL. */
  apiUrl: string;
  bot: WebexPerson;
  people: WebexPerson[];
  orgId: string;
  messages: WebexMessage[];
  actions: WebexAttachmentAction[];
  webhooks: WebexWebhook[];
  deliveries: Delivery[];
  readonly requests: Awaited<ReturnType<typeof startVendorServer>>["requests"];
  /** A group space with the bot and everyone in it; returns its id. */
  space(title: string): string;
  /** `who` writes in a space through the API with their own token (`mention`: the bot, as a client mentions it). */
  say(
    who: string,
    roomId: string,
    text: string,
    options?: { mention?: boolean; parentId?: string; held?: boolean },
  ): Promise<{ message: WebexMessage; deliveries: Delivery[] }>;
  /** Sends held deliveries as Webex would have (signed); returns each answer's status. */
  release(deliveries: Delivery[]): Promise<number[]>;
  /** `who` presses a card's button: the attachment action their Webex client creates. */
  press(who: string, card: WebexMessage, inputs: Record<string, unknown>): Promise<WebexAttachmentAction>;
  /** Sends a webhook body as Webex would, signed with `secret` (the webhook's own when not given). */
  deliverRaw(targetUrl: string, body: string, signature: string | undefined): Promise<number>;
  /** The bot's messages in a thread (the root's replies), oldest first, deleted ones left out. */
  botReplies(parentId: string): WebexMessage[];
  /** The direct messages the bot sent to a person. */
  directTo(who: string): WebexMessage[];
  /** Resolves once every webhook delivery started so far has been answered. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

// specs/ beside src/ and dist/.
const SPEC = join(import.meta.dirname, "..", "specs", "webex-messaging.json");

/**
 * Webex's description gives a message's attachment only the enterprise-content file shape
 * (`content: File`), while its Cards guide and API take `{ contentType:
 * "application/vnd.microsoft.card.adaptive", content: <card> }`: the card shape is added beside the
 * file one (here, not in the vendored file, which stays as Webex publishes it).
 */
function withCards<T extends { components: { schemas: Record<string, unknown> } }>(document: T): T {
  const file = document.components.schemas.Attachment;
  document.components.schemas.Attachment = {
    anyOf: [
      file,
      {
        type: "object",
        required: ["contentType", "content"],
        properties: {
          contentType: { type: "string", enum: ["application/vnd.microsoft.card.adaptive"] },
          content: {
            type: "object",
            required: ["type", "version", "body"],
            properties: {
              type: { type: "string", enum: ["AdaptiveCard"] },
              version: { type: "string" },
              body: { type: "array", items: { type: "object", required: ["type"] } },
              actions: { type: "array", items: { type: "object", required: ["type"] } },
            },
          },
        },
      },
    ],
  };
  return document;
}

/** Webex's signature of a webhook body: HMAC-SHA1 of the raw body with the webhook's secret, hex. */
export function sparkSignature(secret: string, body: string): string {
  return createHmac("sha1", secret).update(body).digest("hex");
}

/**
 * Starts a Webex look-alike on loopback, driven by Webex's own OpenAPI description (requests matched
 * and validated against it, answers checked against its schemas): the bot and people each with a
 * token, group spaces, messages with threads (`parentId`) and mentions, edits and deletes, adaptive
 * cards and their attachment actions, and webhooks delivered to their target URL signed with
 * `X-Spark-Signature` as Webex signs them. A bot's message webhook fires, as Webex's does, only for
 * direct messages and messages that mention it (and for its own).
 */
export async function startFakeWebex(options: {
  users: Array<{ name: string; email: string; displayName?: string }>;
}): Promise<FakeWebex> {
  const orgId = webexId("ORGANIZATION");
  const person = (email: string, displayName: string, type: "person" | "bot"): WebexPerson => ({
    id: webexId("PEOPLE"),
    emails: [email],
    displayName,
    orgId,
    type,
    token: `fake-webex-${type}-token-${randomUUID()}`,
  });
  const bot = person("switchboard@webex.bot", "Switchboard", "bot");
  const byName = new Map<string, WebexPerson>();
  for (const user of options.users)
    byName.set(user.name, person(user.email, user.displayName ?? user.name, "person"));
  const people = [bot, ...byName.values()];
  const rooms = new Map<string, { id: string; type: "direct" | "group"; members: Set<string> }>();
  const messages: WebexMessage[] = [];
  const actions: WebexAttachmentAction[] = [];
  const webhooks: WebexWebhook[] = [];
  const deliveries: Delivery[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let holding = false;
  const now = () => new Date().toISOString();

  const caller = (ctx: Ctx): WebexPerson => {
    const token = /^Bearer (.+)$/.exec(String(ctx.headers.authorization ?? ""))?.[1];
    const who = people.find((one) => one.token === token);
    if (!who)
      throw new VendorHttpError(
        401,
        "The request requires a valid access token set in the Authorization request header.",
      );
    return who;
  };
  const body = (ctx: Ctx) =>
    ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : {};
  const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const notFound = () => new VendorHttpError(404, "The requested resource could not be found.");
  const visible = (who: WebexPerson, message: WebexMessage | undefined) => {
    if (!message || message.deleted || !rooms.get(message.roomId)?.members.has(who.id)) throw notFound();
    return message;
  };
  const view = ({ versions: _v, deleted: _d, ...message }: WebexMessage) => message;
  const directRoom = (a: string, b: string) => {
    const found = [...rooms.values()].find(
      (room) => room.type === "direct" && room.members.has(a) && room.members.has(b),
    );
    if (found) return found;
    const room = { id: webexId("ROOM"), type: "direct" as const, members: new Set([a, b]) };
    rooms.set(room.id, room);
    return room;
  };

  /** Fires every webhook whose owner may see the event, each signed with its own secret. */
  const fire = (resource: string, data: Record<string, unknown>, actorId: string, roomId: string) => {
    for (const hook of webhooks.filter((one) => one.resource === resource && one.event === "created")) {
      if (!rooms.get(roomId)?.members.has(hook.createdBy)) continue;
      if (resource === "messages") {
        const room = rooms.get(roomId);
        const mentioned = (data.mentionedPeople as string[] | undefined)?.includes(hook.createdBy);
        if (room?.type === "group" && !mentioned && actorId !== hook.createdBy) continue;
      }
      const payload = JSON.stringify({
        id: hook.id,
        name: hook.name,
        targetUrl: hook.targetUrl,
        resource,
        event: "created",
        orgId,
        createdBy: hook.createdBy,
        appId: "fake-webex-app",
        ownedBy: "creator",
        status: "active",
        created: hook.created,
        actorId,
        data,
      });
      const signature = hook.secret ? sparkSignature(hook.secret, payload) : undefined;
      const record: Delivery = {
        webhookId: hook.id,
        targetUrl: hook.targetUrl,
        body: payload,
        signature,
        status: 0,
      };
      deliveries.push(record);
      if (holding) {
        record.held = true;
        continue;
      }
      const sent = deliverRaw(hook.targetUrl, payload, signature).then((status) => {
        record.status = status;
      });
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
    }
  };
  const deliverRaw = async (targetUrl: string, payload: string, signature: string | undefined) => {
    const answer = await fetch(targetUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(signature ? { "x-spark-signature": signature } : {}),
      },
      body: payload,
    }).catch(() => undefined);
    await answer?.arrayBuffer().catch(() => undefined);
    return answer?.status ?? 0;
  };

  const createMessage: Handler = (ctx) => {
    const who = caller(ctx);
    const input = body(ctx);
    const toPerson = str(input.toPersonId) ?? str(input.toPersonEmail);
    let room = str(input.roomId) ? rooms.get(String(input.roomId)) : undefined;
    if (!room && toPerson) {
      const other = people.find((one) => one.id === toPerson || one.emails.includes(toPerson));
      if (!other) throw new VendorHttpError(404, "The person could not be found.");
      room = directRoom(who.id, other.id);
    }
    // A space the caller is not in is hidden from them, as in Webex.
    if (!room) throw notFound();
    if (!room.members.has(who.id)) throw notFound();
    const markdown = str(input.markdown);
    const attachments = Array.isArray(input.attachments)
      ? (input.attachments as WebexMessage["attachments"])
      : undefined;
    if (!markdown && !str(input.text) && !attachments?.length)
      throw new VendorHttpError(400, "text, markdown, files or attachments is required.");
    const parentId = str(input.parentId);
    if (parentId) {
      const parent = messages.find((one) => one.id === parentId && one.roomId === room.id && !one.deleted);
      if (!parent)
        throw new VendorHttpError(400, "Invalid parentId: the parent message is not in this room.");
      if (parent.parentId) throw new VendorHttpError(400, "Invalid parentId: replies cannot be replied to.");
    }
    // A mention as clients send it, `<@personId:ID|Name>`: the text shows the name.
    const mentionedPeople: string[] = [];
    const source = markdown ?? String(input.text ?? "");
    const text = source.replace(/<@personId:([^|>]+)\|([^>]*)>/g, (_all, id: string, name: string) => {
      mentionedPeople.push(id);
      return name;
    });
    const message: WebexMessage = {
      id: webexId("MESSAGE"),
      roomId: room.id,
      roomType: room.type,
      ...(parentId ? { parentId } : {}),
      text: str(input.text) ?? text,
      ...(markdown ? { markdown } : {}),
      ...(attachments?.length ? { attachments } : {}),
      personId: who.id,
      personEmail: who.emails[0] ?? "",
      ...(mentionedPeople.length ? { mentionedPeople } : {}),
      created: now(),
      versions: [str(input.text) ?? text],
    };
    messages.push(message);
    fire(
      "messages",
      {
        id: message.id,
        roomId: room.id,
        roomType: room.type,
        personId: who.id,
        personEmail: message.personEmail,
        ...(mentionedPeople.length ? { mentionedPeople } : {}),
        created: message.created,
      },
      who.id,
      room.id,
    );
    return { status: 200, body: view(message) };
  };

  const editMessage: Handler = (ctx) => {
    const who = caller(ctx);
    const message = visible(
      who,
      messages.find((one) => one.id === ctx.params.messageId),
    );
    const input = body(ctx);
    if (message.personId !== who.id) throw new VendorHttpError(403, "Only the sender can edit a message.");
    if (str(input.roomId) !== message.roomId)
      throw new VendorHttpError(400, "roomId does not match the message.");
    const text = str(input.markdown) ?? str(input.text);
    if (!text) throw new VendorHttpError(400, "text or markdown is required.");
    if (message.attachments?.length)
      throw new VendorHttpError(400, "Editing a message with files or attachments is currently unsupported.");
    // Webex takes at most 10 edits of a message.
    if (message.versions.length > 10) throw new VendorHttpError(400, "The edit limit has been reached.");
    message.text = str(input.text) ?? text;
    if (str(input.markdown)) message.markdown = text;
    message.updated = now();
    message.versions.push(message.text);
    return { status: 200, body: view(message) };
  };

  const createAction: Handler = (ctx) => {
    const who = caller(ctx);
    const input = body(ctx);
    const card = visible(
      who,
      messages.find((one) => one.id === input.messageId),
    );
    if (!card.attachments?.length) throw new VendorHttpError(400, "The message has no card to act on.");
    const action: WebexAttachmentAction = {
      id: webexId("ATTACHMENT_ACTION"),
      type: "submit",
      messageId: card.id,
      inputs: (input.inputs as Record<string, unknown>) ?? {},
      personId: who.id,
      roomId: card.roomId,
      created: now(),
    };
    actions.push(action);
    fire("attachmentActions", { ...action }, who.id, card.roomId);
    return { status: 200, body: action };
  };

  const createWebhook: Handler = (ctx) => {
    const who = caller(ctx);
    const input = body(ctx);
    const hook: WebexWebhook = {
      id: webexId("WEBHOOK"),
      name: String(input.name),
      targetUrl: String(input.targetUrl),
      resource: String(input.resource),
      event: String(input.event),
      ...(str(input.secret) ? { secret: String(input.secret) } : {}),
      status: "active",
      created: now(),
      createdBy: who.id,
    };
    webhooks.push(hook);
    return { status: 200, body: hook };
  };
  const personView = ({ token: _t, ...rest }: WebexPerson) => ({ ...rest, created: now() });

  const document = withCards(
    JSON.parse(await readFile(SPEC, "utf8")) as Document & {
      components: { schemas: Record<string, unknown> };
    },
  );
  const server = await startVendorServer({
    name: "Webex",
    openApi: {
      document,
      apiRoot: "/v1",
      operations: {
        "Get My Own Details": (ctx) => ({ status: 200, body: personView(caller(ctx)) }),
        "Get Person Details": (ctx) => {
          caller(ctx);
          const found = people.find((one) => one.id === ctx.params.personId);
          if (!found) throw notFound();
          return { status: 200, body: personView(found) };
        },
        "Create a Message": createMessage,
        "Get Message Details": (ctx) => ({
          status: 200,
          body: view(
            visible(
              caller(ctx),
              messages.find((one) => one.id === ctx.params.messageId),
            ),
          ),
        }),
        "Edit a Message": editMessage,
        "Delete a Message": (ctx) => {
          const who = caller(ctx);
          const message = visible(
            who,
            messages.find((one) => one.id === ctx.params.messageId),
          );
          if (message.personId !== who.id)
            throw new VendorHttpError(403, "Only the sender can delete a message.");
          message.deleted = true;
          return { status: 204 };
        },
        "Create an Attachment Action": createAction,
        "Get Attachment Action Details": (ctx) => {
          const who = caller(ctx);
          const action = actions.find((one) => one.id === ctx.params.id);
          if (!action || !rooms.get(action.roomId)?.members.has(who.id)) throw notFound();
          return { status: 200, body: action };
        },
        "List Webhooks": (ctx) => {
          const who = caller(ctx);
          return { status: 200, body: { items: webhooks.filter((one) => one.createdBy === who.id) } };
        },
        "Create a Webhook": createWebhook,
        "Delete a Webhook": (ctx) => {
          const who = caller(ctx);
          const index = webhooks.findIndex(
            (one) => one.id === ctx.params.webhookId && one.createdBy === who.id,
          );
          if (index < 0) throw notFound();
          webhooks.splice(index, 1);
          return { status: 204 };
        },
      },
    },
    // Each operation checks the caller's token itself (every person has one).
    checkRequest: () => {},
    errorBody: (error) => ({
      message: [error.message, ...error.details].join("; "),
      errors: [{ description: error.message }],
      trackingId: `ROUTER_${randomUUID()}`,
    }),
  });
  const apiUrl = `${server.url}/v1`;
  const personNamed = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new Error(`fake Webex has no user ${name}`);
    return found;
  };
  const api = async <T>(who: WebexPerson, method: string, path: string, payload: unknown): Promise<T> => {
    const answer = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    const json = (await answer.json()) as T;
    if (!answer.ok) throw new Error(`fake Webex answered ${answer.status}: ${JSON.stringify(json)}`);
    return json;
  };

  return {
    url: server.url,
    apiUrl,
    bot,
    people: [...byName.values()],
    orgId,
    messages,
    actions,
    webhooks,
    deliveries,
    requests: server.requests,
    space: (title) => {
      void title;
      const room = {
        id: webexId("ROOM"),
        type: "group" as const,
        members: new Set(people.map((one) => one.id)),
      };
      rooms.set(room.id, room);
      return room.id;
    },
    say: async (who, roomId, text, sayOptions = {}) => {
      const markdown = sayOptions.mention ? `<@personId:${bot.id}|${bot.displayName}> ${text}` : text;
      const before = deliveries.length;
      holding = sayOptions.held === true;
      const posted = await api<{ id: string }>(personNamed(who), "POST", "/messages", {
        roomId,
        markdown,
        ...(sayOptions.parentId ? { parentId: sayOptions.parentId } : {}),
      }).finally(() => {
        holding = false;
      });
      const message = messages.find((one) => one.id === posted.id);
      if (!message) throw new Error("fake Webex lost a message");
      return { message, deliveries: deliveries.slice(before) };
    },
    release: (held) =>
      Promise.all(
        held.map(async (record) => {
          record.held = false;
          record.status = await deliverRaw(record.targetUrl, record.body, record.signature);
          return record.status;
        }),
      ),
    press: (who, card, inputs) =>
      api<WebexAttachmentAction>(personNamed(who), "POST", "/attachment/actions", {
        type: "submit",
        messageId: card.id,
        inputs,
      }),
    deliverRaw,
    botReplies: (parentId) =>
      messages.filter((one) => one.parentId === parentId && one.personId === bot.id && !one.deleted),
    directTo: (who) => {
      const target = personNamed(who);
      return messages.filter(
        (one) =>
          one.roomType === "direct" &&
          one.personId === bot.id &&
          rooms.get(one.roomId)?.members.has(target.id),
      );
    },
    settled: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close: () => server.close(),
  };
}
