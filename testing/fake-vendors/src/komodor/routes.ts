import { randomUUID } from "node:crypto";
import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import type { HealthRisk, KomodorState, UserRole } from "./state.js";

const RISK_STATUSES = new Set(["open", "confirmed", "resolved", "ignored", "manually_resolved"]);
const TWO_DAYS = 2 * 24 * 3_600_000;

/** A search body's scope and time range; Komodor allows at most two days, by default the last day. */
function searchScope(body: unknown) {
  const input = isRecord(body) ? body : {};
  const scope = isRecord(input.scope) ? input.scope : {};
  const cluster = typeof scope.cluster === "string" ? scope.cluster : "";
  if (!cluster) throw new VendorHttpError(400, "scope.cluster is required");
  const namespaces = Array.isArray(scope.namespaces) ? scope.namespaces.map(String) : [];
  const toEpoch = Number(input.toEpoch ?? Date.now());
  const fromEpoch = Number(input.fromEpoch ?? toEpoch - TWO_DAYS / 2);
  if (toEpoch - fromEpoch > TWO_DAYS) throw new VendorHttpError(400, "Maximum time range is 2 days");
  const props = isRecord(input.props) ? input.props : {};
  return { cluster, namespaces, fromEpoch, toEpoch, props };
}

const inNamespaces = (namespaces: string[], namespace: string) =>
  namespaces.length === 0 || namespaces.includes(namespace);

/** The public API v2 routes the agent uses, as Komodor's API reference describes them. */
export function komodorRoutes(
  state: KomodorState,
): Array<["GET" | "POST" | "PUT" | "DELETE", string, Handler]> {
  const known = (cluster: string) => {
    if (!state.clusters.some((one) => one.clusterName === cluster))
      throw new VendorHttpError(404, `Cluster ${cluster} not found`);
  };
  const findRisk = (id: string): HealthRisk => {
    const risk = state.risks.find((one) => one.id === id);
    if (!risk) throw new VendorHttpError(404, `Violation ${id} not found`);
    return risk;
  };

  const searchIssues: Handler = ({ body }) => {
    const { cluster, namespaces, fromEpoch, toEpoch, props } = searchScope(body);
    known(cluster);
    const statuses = Array.isArray(props.statuses) ? props.statuses.map(String) : [];
    const issues = state.issues.filter(
      (one) =>
        one.clusterName === cluster &&
        inNamespaces(namespaces, one.namespace) &&
        one.startTime <= toEpoch &&
        (one.endTime ?? toEpoch) >= fromEpoch &&
        (statuses.length === 0 || statuses.includes(one.status)),
    );
    return { status: 200, body: { data: { issues }, meta: { nextPage: null } } };
  };

  const searchEvents: Handler = ({ body }) => {
    const { cluster, namespaces, fromEpoch, toEpoch, props } = searchScope(body);
    known(cluster);
    const types = Array.isArray(props.eventType) ? props.eventType.map(String) : [];
    const events = state.events
      .filter(
        (one) =>
          one.clusterName === cluster &&
          inNamespaces(namespaces, one.namespace) &&
          one.eventTime >= fromEpoch &&
          one.eventTime <= toEpoch &&
          (types.length === 0 || types.includes(one.type)),
      )
      .sort((a, b) => b.eventTime - a.eventTime);
    return { status: 200, body: { data: { events }, meta: { nextPage: null } } };
  };

  const listRisks: Handler = ({ query }) => {
    const pageSize = Number(query.get("pageSize") ?? 50);
    const offset = Number(query.get("offset") ?? 0);
    if (!query.get("pageSize")) throw new VendorHttpError(400, "pageSize is required");
    const filter = (name: string) => query.getAll(name);
    const [clusters, statuses, severities, groups] = [
      "clusterName",
      "status",
      "severity",
      "impactGroupType",
    ].map(filter);
    const matching = state.risks.filter(
      (one) =>
        (!clusters?.length || clusters.includes(one.clusterName)) &&
        (!statuses?.length || statuses.includes(one.status)) &&
        (!severities?.length || severities.includes(one.severity)) &&
        (!groups?.length || groups.includes(one.impactGroupType)),
    );
    return {
      status: 200,
      body: {
        violations: matching.slice(offset, offset + pageSize),
        hasMore: offset + pageSize < matching.length,
      },
    };
  };

  const setRiskStatus: Handler = ({ params, body }) => {
    const risk = findRisk(params.id ?? "");
    const status = isRecord(body) ? String(body.status ?? "") : "";
    if (!RISK_STATUSES.has(status))
      throw new VendorHttpError(400, `status must be one of ${[...RISK_STATUSES].join(", ")}`);
    risk.status = status as HealthRisk["status"];
    state.changes.push({ action: "risk-status", riskId: risk.id, status: risk.status });
    return { status: 200, body: { violation: risk } };
  };

  const startRca: Handler = ({ body }) => {
    const input = isRecord(body) ? body : {};
    const [clusterName, namespace, kind, name] = ["clusterName", "namespace", "kind", "name"].map((key) =>
      String(input[key] ?? ""),
    );
    if (!clusterName || !namespace || !kind || !name)
      throw new VendorHttpError(400, "clusterName, namespace, kind and name are required");
    known(clusterName);
    const issue = state.issues.find(
      (one) => one.clusterName === clusterName && one.namespace === namespace && one.name === name,
    );
    // Klaudia's analysis runs in the background; the fake has it finish at once.
    const session = {
      sessionId: randomUUID(),
      clusterName,
      namespace,
      kind,
      name,
      isComplete: true,
      problemShort: issue ? `${kind} ${name} is in ${issue.reason}` : `No problem found on ${kind} ${name}`,
      recommendation:
        issue?.reason === "CrashLoopBackOff"
          ? "Roll back to the last healthy image; the new one exits on start (missing DB_URL)."
          : "Nothing to do.",
    };
    state.rcaSessions.push(session);
    state.changes.push({ action: "rca", session });
    return { status: 200, body: { sessionId: session.sessionId } };
  };

  // A user by id or email, and a role by id or name, as the users and RBAC APIs take them.
  const findUser = (idOrEmail: string) => {
    const user = state.users.find((one) => one.id === idOrEmail || one.email === idOrEmail.toLowerCase());
    if (!user) throw new VendorHttpError(404, `User ${idOrEmail} not found`);
    return user;
  };
  const userRoleBody = (body: unknown): UserRole => {
    const input = isRecord(body) ? body : {};
    const userId = typeof input.userId === "string" ? input.userId : "";
    const roleId = typeof input.roleId === "string" ? input.roleId : "";
    if (!userId || !roleId) throw new VendorHttpError(400, "userId and roleId are required");
    findUser(userId);
    if (!state.roles.some((one) => one.id === roleId))
      throw new VendorHttpError(404, `Role ${roleId} not found`);
    const expiration = input.expiration;
    if (expiration !== undefined && (typeof expiration !== "string" || Number.isNaN(Date.parse(expiration))))
      throw new VendorHttpError(400, "expiration must be an RFC 3339 date-time");
    return { userId, roleId, ...(expiration ? { expiration } : {}) };
  };
  const sameAssignment = (a: UserRole, b: UserRole) => a.userId === b.userId && a.roleId === b.roleId;

  const assignRole: Handler = ({ body }) => {
    const userRole = userRoleBody(body);
    if (state.userRoles.some((one) => sameAssignment(one, userRole)))
      throw new VendorHttpError(409, "The user already has this role");
    state.userRoles.push(userRole);
    state.changes.push({ action: "role-assign", userRole });
    return { status: 200, body: userRole };
  };

  const removeRole: Handler = ({ body }) => {
    const wanted = userRoleBody(body);
    const index = state.userRoles.findIndex((one) => sameAssignment(one, wanted));
    if (index < 0) throw new VendorHttpError(404, "The user does not have this role");
    const [userRole] = state.userRoles.splice(index, 1);
    state.changes.push({ action: "role-remove", userRole: userRole ?? wanted });
    return { status: 200, body: { userId: wanted.userId, roleId: wanted.roleId } };
  };

  const timeWindow = (query: URLSearchParams) => ({
    from: Number(query.get("fromEpoch") ?? 0),
    to: Number(query.get("toEpoch") ?? Number.MAX_SAFE_INTEGER),
  });

  return [
    ["GET", "/api/v2/clusters", () => ({ status: 200, body: { data: { clusters: state.clusters } } })],
    ["POST", "/api/v2/clusters/issues/search", searchIssues],
    ["POST", "/api/v2/clusters/k8s-events/search", searchEvents],
    ["GET", "/api/v2/health/risks", listRisks],
    [
      "GET",
      "/api/v2/health/risks/{id}",
      ({ params }) => ({ status: 200, body: { violation: findRisk(params.id ?? "") } }),
    ],
    ["PUT", "/api/v2/health/risks/{id}", setRiskStatus],
    [
      "GET",
      "/api/v2/cost/allocation",
      ({ query }) => {
        const timeFrame = query.get("timeFrame") ?? "30d";
        if (!["7d", "14d", "30d"].includes(timeFrame))
          throw new VendorHttpError(400, "timeFrame must be 7d, 14d or 30d");
        const clusters = query.getAll("clusterName");
        const rows = state.costs.filter((one) => !clusters.length || clusters.includes(one.clusterName));
        return { status: 200, body: { timeFrame, rows } };
      },
    ],
    [
      "GET",
      "/api/v2/cost/right-sizing/service",
      ({ query }) => {
        const clusters = query.getAll("clusterName");
        const rows = state.rightSizing.filter(
          (one) => !clusters.length || clusters.includes(one.clusterName),
        );
        return { status: 200, body: { rows } };
      },
    ],
    [
      "POST",
      "/api/v2/jobs/search",
      ({ body }) => {
        const { cluster, namespaces, props } = searchScope(body);
        known(cluster);
        const statuses = Array.isArray(props.statuses) ? props.statuses.map(String) : [];
        const jobs = state.jobs.filter(
          (one) =>
            one.clusterName === cluster &&
            inNamespaces(namespaces, one.namespace) &&
            (!statuses.length || statuses.includes(one.status)),
        );
        return { status: 200, body: { data: { jobs }, meta: { nextPage: null } } };
      },
    ],
    ["POST", "/api/v2/klaudia/rca/sessions", startRca],
    [
      "GET",
      "/api/v2/klaudia/rca/sessions/{id}",
      ({ params }) => {
        const session = state.rcaSessions.find((one) => one.sessionId === params.id);
        if (!session) throw new VendorHttpError(404, `RCA session ${params.id} not found`);
        return { status: 200, body: session };
      },
    ],
    ["GET", "/api/v2/rbac/roles", () => ({ status: 200, body: state.roles })],
    ["POST", "/api/v2/rbac/users/roles", assignRole],
    ["DELETE", "/api/v2/rbac/users/roles", removeRole],
    [
      "GET",
      "/api/v2/users/{idOrEmail}",
      ({ params }) => {
        const user = findUser(decodeURIComponent(params.idOrEmail ?? ""));
        const roles = state.userRoles
          .filter((one) => one.userId === user.id)
          .map((one) => ({
            ...state.roles.find((role) => role.id === one.roleId),
            expiration: one.expiration,
          }));
        return { status: 200, body: { ...user, roles } };
      },
    ],
    [
      "GET",
      "/api/v2/users/effective-permissions",
      ({ query }) => {
        const email = query.get("email")?.toLowerCase();
        if (!email && !query.get("id")) throw new VendorHttpError(400, "id or email is required");
        const rows = state.permissions.filter((one) => one.email === email);
        if (rows.length === 0) throw new VendorHttpError(404, `User ${email} not found`);
        return { status: 200, body: rows.map(({ email: _email, ...rest }) => rest) };
      },
    ],
    [
      "GET",
      "/api/v2/audit-log",
      ({ query }) => {
        const { from, to } = timeWindow(query);
        const user = query.get("userEmail");
        const data = state.audit
          .filter((one) => one.eventTime >= from && one.eventTime <= to && (!user || one.userEmail === user))
          .sort((a, b) => b.eventTime - a.eventTime);
        return { status: 200, body: { data, meta: { nextPage: null } } };
      },
    ],
  ];
}
