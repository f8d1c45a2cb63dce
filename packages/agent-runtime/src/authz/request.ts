import type { EntityJson, EntityUidJson } from "@cedar-policy/cedar-wasm/nodejs";
import type { Principal } from "./principal.js";

/**
 * What an agent is asked to do, in the policy's words:
 * - `reach`: use the agent at all (the resource is `Switchboard::Agent::"<agent>"`);
 * - `audit`: read the agent's audit trail (GET /audit; the resource is the agent, as for reach);
 * - `read` / `change`: call one of its tools that reads or changes (the resource is the call,
 *   `Switchboard::Call`, inside its tool, its agent, and each thing its arguments name);
 * - `approve`: answer (approve or decline) a change another user's turn waits on; the resource is
 *   that change's call, as for `change`, with `resource.requester` the user whose change it is;
 * - `configure`: create, change or delete a configured agent's definition (the dynamic-agents API;
 *   the resource is the agent, `Switchboard::Agent::"<id>"`, as for reach).
 */
export type AuthzAction = "reach" | "audit" | "read" | "change" | "approve" | "configure";

/**
 * What a call acts on, as its tool declares it from the arguments: kind → name, e.g.
 * `{ project: "PLAT" }` or `{ owner: "acme", repository: "acme/api" }`. Each becomes an entity
 * `<Agent>::<Kind>::"<name>"` the call is in (`resource in Jira::Project::"PLAT"`) and an attribute
 * of the call (`resource.project == "PLAT"`).
 */
export type ToolResource = Record<string, string>;

export interface AuthzQuestion {
  principal: Principal;
  action: AuthzAction;
  agent: string;
  /** The tool, for read and change (reach and audit are on the agent itself). */
  tool?: string;
  resource?: ToolResource;
  /**
   * For read and change: whose credential the call would run with at the vendor, the caller's own
   * linked token or the agent's service credential (default). In the policy's context as
   * `context.credential` ("linked" | "service"), so a policy can keep the service credential from
   * those who should act as themselves; policies that do not mention it decide as before.
   */
  credential?: "linked" | "service";
  /** For approve: the user whose change it is (`resource.requester`, a `Switchboard::User`). */
  requester?: Principal;
}

export interface CedarRequest {
  principal: EntityUidJson;
  action: EntityUidJson;
  resource: EntityUidJson;
  context: Record<string, string>;
  entities: EntityJson[];
}

const NS = "Switchboard";

/** The actions whose resource is the agent itself, never a call. */
const ON_AGENT = new Set<AuthzAction>(["reach", "audit", "configure"]);

/** The entities and uids for one question: built per call, so nothing is shared between callers. */
export function cedarRequest(question: AuthzQuestion): CedarRequest {
  const { principal, agent, requester } = question;
  const user = userUid(principal);
  const agentUid = { type: `${NS}::Agent`, id: agent };
  const people = requester && requester.subject !== principal.subject ? [principal, requester] : [principal];
  const groups = [...new Set(people.flatMap((person) => person.groups))].map((id) => groupUid(id));
  const entities: EntityJson[] = [
    ...people.map(userEntity),
    ...groups.map((uid) => ({ uid, attrs: {}, parents: [] })),
    { uid: agentUid, attrs: {}, parents: [] },
  ];
  const action = { type: `${NS}::Action`, id: question.action };
  if (ON_AGENT.has(question.action) || !question.tool) {
    return { principal: user, action, resource: agentUid, context: {}, entities };
  }
  const toolUid = { type: `${NS}::Tool`, id: `${agent}/${question.tool}` };
  const resource = normalized(question.resource ?? {});
  const targets = Object.entries(resource).map(([kind, id]) => ({
    type: `${pascal(agent)}::${pascal(kind)}`,
    id,
  }));
  const call = { type: `${NS}::Call`, id: `${agent}/${question.tool}` };
  entities.push(
    { uid: toolUid, attrs: { name: question.tool }, parents: [agentUid] },
    ...targets.map((uid) => ({ uid, attrs: {}, parents: [agentUid] })),
    {
      uid: call,
      attrs: {
        agent,
        tool: question.tool,
        ...resource,
        ...(requester ? { requester: { __entity: { type: `${NS}::User`, id: requester.subject } } } : {}),
      },
      parents: [toolUid, agentUid, ...targets],
    },
  );
  return {
    principal: user,
    action,
    resource: call,
    context: { credential: question.credential ?? "service" },
    entities,
  };
}

function userUid(principal: Principal): EntityUidJson {
  return { type: `${NS}::User`, id: principal.subject };
}

function groupUid(id: string): EntityUidJson {
  return { type: `${NS}::Group`, id };
}

function userEntity(principal: Principal): EntityJson {
  return {
    uid: userUid(principal),
    attrs: {
      authenticated: principal.authenticated,
      ...(principal.email ? { email: principal.email } : {}),
      ...(principal.name ? { name: principal.name } : {}),
    },
    parents: principal.groups.map(groupUid),
  };
}

/** `github` → `Github`, `pull_request` → `PullRequest`: Cedar type names from our names. */
export function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");
}

/**
 * Names in Unicode's compatibility form (NFKC), trimmed: a full-width or ligature spelling of a
 * name is the name a policy wrote. Case is the tool's to decide (GitHub's names ignore it, Jira's
 * keys are upper case), in its resource declaration.
 */
export function normalized(resource: ToolResource): ToolResource {
  return Object.fromEntries(
    Object.entries(resource).map(([kind, id]) => [kind, id.normalize("NFKC").trim()]),
  );
}
