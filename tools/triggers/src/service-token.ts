import { SwitchboardError } from "@switchboard/common";
import type { TaskDefinition } from "./config.js";

/** One confidential client at the IdP: the service's own, or a task's. */
export interface ClientCredentials {
  id: string;
  secret: string;
  /** The settings that hold it, named when the IdP refuses it (never their values). */
  settings: string;
}

/** Where and how every client's token is asked for (CAIPE's DYNAMIC_AGENTS_OAUTH2_*). */
export interface ServiceClient {
  tokenUrl: string;
  /** The service's own client: the principal of every task that names none of its own. */
  client: ClientCredentials | undefined;
  scope: string | undefined;
  /** The agents' audience (AUTH_AUDIENCE), asked for as the token's resource (RFC 8707). */
  resource: string | undefined;
}

/** A token is fetched again this long before it expires, so a run never starts on one about to lapse. */
const EARLY_MS = 60_000;

/**
 * One client's access token, by the OAuth 2.0 client-credentials grant (RFC 6749 §4.4): its principal
 * is the client itself (`sub` = client id), which the policies name and grant only what its tasks
 * need. It holds no user's token and no signing key, so it can act as nobody else.
 */
export class ServiceToken {
  private cached: { token: string; until: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly endpoint: Omit<ServiceClient, "client">,
    private readonly client: ClientCredentials,
  ) {}

  get(): Promise<string> {
    if (this.cached && Date.now() < this.cached.until) return Promise.resolve(this.cached.token);
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetch(): Promise<string> {
    const { tokenUrl, scope, resource } = this.endpoint;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) form.set("scope", scope);
    if (resource) form.set("resource", resource);
    // client_secret_basic: both parts form-encoded first (RFC 6749 §2.3.1).
    const basic = Buffer.from(
      `${encodeURIComponent(this.client.id)}:${encodeURIComponent(this.client.secret)}`,
    ).toString("base64");
    const fail = (why: string) =>
      new SwitchboardError(
        "triggers.identity",
        "user",
        `The token of client ${this.client.id} could not be had from ${new URL(tokenUrl).origin} (${why}); check ${this.client.settings} and DYNAMIC_AGENTS_OAUTH2_SCOPE.`,
      );
    const answer = await fetch(tokenUrl, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: form,
      redirect: "error",
      signal: AbortSignal.timeout(10_000),
    }).catch((error: unknown) => {
      throw fail(error instanceof Error ? error.message : String(error));
    });
    const body = (await answer.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!answer.ok || typeof body.access_token !== "string")
      throw fail(typeof body.error === "string" ? body.error : `HTTP ${answer.status}`);
    const lifetimeMs = typeof body.expires_in === "number" ? body.expires_in * 1000 : 300_000;
    this.cached = { token: body.access_token, until: Date.now() + Math.max(0, lifetimeMs - EARLY_MS) };
    return body.access_token;
  }
}

/**
 * Who each task's runs act as under AUTH_MODE=jwt: the task's own client when it names one
 * (`trigger.client_id_env`), else the service's. One token per client, cached, however many tasks
 * share it. Checked whole at start: a task whose principal cannot be had stops the service, naming
 * the settings to set.
 */
export class Principals {
  private readonly byTask = new Map<string, ServiceToken>();

  constructor(service: ServiceClient, tasks: Iterable<TaskDefinition>) {
    const byClient = new Map<string, ServiceToken>();
    const { client, ...endpoint } = service;
    const orphans: string[] = [];
    for (const task of tasks) {
      const own = task.client ?? client;
      if (!own) {
        orphans.push(`"${task.id}"`);
        continue;
      }
      // The same client (id and secret) named by several tasks shares one token.
      const key = `${own.id}\n${own.secret}`;
      let token = byClient.get(key);
      if (!token) {
        token = new ServiceToken(endpoint, own);
        byClient.set(key, token);
      }
      this.byTask.set(task.id, token);
    }
    if (orphans.length > 0)
      throw new SwitchboardError(
        "triggers.config",
        "user",
        `AUTH_MODE=jwt: ${tasksNamed(orphans)} no client of its own, so its runs act as the service's client: set DYNAMIC_AGENTS_OAUTH2_CLIENT_ID and DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET (a confidential client allowed the client-credentials grant), or give each such task trigger.client_id_env and trigger.client_secret_env.`,
      );
  }

  /** The bearer token a run of `task` sends. */
  tokenFor(task: TaskDefinition): Promise<string> {
    const token = this.byTask.get(task.id);
    if (!token) throw new Error(`No principal for task ${task.id}`);
    return token.get();
  }
}

/**
 * The principals of every task, or none under AUTH_MODE=none (runs act as the one local principal):
 * then a task naming a client of its own stops the service, as its author meant it to be limited.
 */
export function principalsFor(
  service: ServiceClient | undefined,
  tasks: Iterable<TaskDefinition>,
): Principals | undefined {
  if (service) return new Principals(service, tasks);
  const limited = [...tasks].filter((task) => task.client).map((task) => `"${task.id}"`);
  if (limited.length > 0)
    throw new SwitchboardError(
      "triggers.config",
      "user",
      `${tasksNamed(limited)} a client of its own (trigger.client_id_env), which counts only under AUTH_MODE=jwt: set AUTH_MODE=jwt with DYNAMIC_AGENTS_OAUTH2_TOKEN_URL, or drop its client_id_env and client_secret_env.`,
    );
  return undefined;
}

/** `task "a" names` or `tasks "a", "b" each name`. */
function tasksNamed(ids: string[]): string {
  return ids.length === 1 ? `task ${ids[0]} names` : `tasks ${ids.join(", ")} each name`;
}
