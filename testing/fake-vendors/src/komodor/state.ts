/** The parts of Komodor's public API v2 objects the fake keeps, as the API names them. */
export interface Cluster {
  clusterName: string;
  provider: string;
  kubernetesVersion: string;
  region: string;
  tags: Record<string, string>;
}

export interface Issue {
  id: string;
  clusterName: string;
  namespace: string;
  kind: string;
  name: string;
  reason: string;
  status: "open" | "closed";
  startTime: number;
  endTime?: number;
}

export interface K8sEvent {
  eventTime: number;
  clusterName: string;
  namespace: string;
  kind: string;
  name: string;
  type: "Normal" | "Warning";
  reason: string;
  message: string;
}

export interface HealthRisk {
  id: string;
  checkType: string;
  checkDescription: string;
  severity: "high" | "medium" | "low";
  status: "open" | "confirmed" | "resolved" | "ignored" | "manually_resolved";
  clusterName: string;
  namespace: string;
  shortResourceName: string;
  impactGroupType: "static" | "dynamic" | "realtime";
  createdAt: number;
}

export interface CostRow {
  clusterName: string;
  namespace: string;
  totalCost: number;
  cpuCost: number;
  memoryCost: number;
  efficiency: number;
}

export interface RightSizingRow {
  clusterName: string;
  namespace: string;
  service: string;
  serviceKind: string;
  cpuRequestCores: number;
  recommendedCpuCores: number;
  memoryRequestMiB: number;
  recommendedMemoryMiB: number;
  monthlySaving: number;
}

export interface Job {
  name: string;
  namespace: string;
  clusterName: string;
  kind: "Job" | "CronJob";
  status: "failed" | "completed" | "running";
  lastRunTime: number;
}

export interface RcaSession {
  sessionId: string;
  clusterName: string;
  namespace: string;
  kind: string;
  name: string;
  isComplete: boolean;
  problemShort: string;
  recommendation: string;
}

export interface Role {
  id: string;
  name: string;
  isDefault: boolean;
}

/** A Komodor user (the users API: id, email, display name). */
export interface User {
  id: string;
  email: string;
  displayName: string;
}

/** A role given to a user, until `expiration` when set (RFC 3339). */
export interface UserRole {
  userId: string;
  roleId: string;
  expiration?: string;
}

export interface UserPermission {
  email: string;
  action: string;
  cluster: string;
  namespaces: string[];
}

export interface AuditEntry {
  id: string;
  eventTime: number;
  userEmail: string;
  action: string;
  category: string;
  resourceName: string;
  status: "success" | "failure";
}

/** One change the fake applied through the API, for tests. */
export type KomodorChange =
  | { action: "risk-status"; riskId: string; status: HealthRisk["status"] }
  | { action: "rca"; session: RcaSession }
  | { action: "role-assign"; userRole: UserRole }
  | { action: "role-remove"; userRole: UserRole };

export interface KomodorState {
  clusters: Cluster[];
  issues: Issue[];
  events: K8sEvent[];
  risks: HealthRisk[];
  costs: CostRow[];
  rightSizing: RightSizingRow[];
  jobs: Job[];
  rcaSessions: RcaSession[];
  roles: Role[];
  users: User[];
  userRoles: UserRole[];
  permissions: UserPermission[];
  audit: AuditEntry[];
  changes: KomodorChange[];
}
