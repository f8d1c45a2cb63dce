import { requestJson } from "@switchboard/agent-runtime";

/** The parts of Webex's objects the bot reads, as its REST API names them. */
export interface WebexPerson {
  id: string;
  emails: string[];
  displayName: string;
  orgId: string;
}

export interface WebexMessage {
  id: string;
  roomId: string;
  roomType?: "direct" | "group";
  parentId?: string;
  text?: string;
  markdown?: string;
  personId: string;
  mentionedPeople?: string[];
  attachments?: unknown[];
}

export interface WebexAttachmentAction {
  id: string;
  type: string;
  messageId: string;
  inputs?: Record<string, unknown>;
  personId: string;
  roomId: string;
}

export interface WebexWebhook {
  id: string;
  name: string;
  targetUrl: string;
  resource: string;
  event: string;
}

/** What a message the bot sends holds: markdown, in a thread or to one person, with a card or not. */
export interface OutgoingWebexMessage {
  roomId?: string;
  toPersonId?: string;
  parentId?: string;
  markdown: string;
  attachments?: Array<{ contentType: string; content: unknown }>;
}

/**
 * The calls the bot makes to Webex's REST API, with the runtime's JSON client as the Webex agent
 * makes them (Webex's own JavaScript SDK is a browser-first bundle of meetings, calling and device
 * plugins; these are a handful of JSON calls it makes itself).
 */
export class WebexApi {
  private readonly headers: Record<string, string>;

  constructor(
    private readonly url: string,
    token: string,
  ) {
    this.headers = { authorization: `Bearer ${token}` };
  }

  me(): Promise<WebexPerson> {
    return this.call("GET", "/people/me");
  }

  person(id: string): Promise<WebexPerson> {
    return this.call("GET", `/people/${encodeURIComponent(id)}`);
  }

  message(id: string): Promise<WebexMessage> {
    return this.call("GET", `/messages/${encodeURIComponent(id)}`);
  }

  post(message: OutgoingWebexMessage): Promise<WebexMessage> {
    return this.call("POST", "/messages", message);
  }

  /** Webex edits a message's text only (its cards stay as they were). */
  edit(id: string, roomId: string, markdown: string): Promise<WebexMessage> {
    return this.call("PUT", `/messages/${encodeURIComponent(id)}`, { roomId, markdown });
  }

  remove(id: string): Promise<void> {
    return this.call("DELETE", `/messages/${encodeURIComponent(id)}`);
  }

  action(id: string): Promise<WebexAttachmentAction> {
    return this.call("GET", `/attachment/actions/${encodeURIComponent(id)}`);
  }

  async webhooks(): Promise<WebexWebhook[]> {
    return (await this.call<{ items?: WebexWebhook[] }>("GET", "/webhooks?max=100")).items ?? [];
  }

  createWebhook(hook: Omit<WebexWebhook, "id"> & { secret: string }): Promise<WebexWebhook> {
    return this.call("POST", "/webhooks", hook);
  }

  deleteWebhook(id: string): Promise<void> {
    return this.call("DELETE", `/webhooks/${encodeURIComponent(id)}`);
  }

  private call<T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
    return requestJson<T>({
      method,
      url: `${this.url}${path}`,
      headers: this.headers,
      ...(body === undefined ? {} : { body }),
      timeoutMs: 15_000,
    });
  }
}
