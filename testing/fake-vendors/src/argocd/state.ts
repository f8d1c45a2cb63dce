/** The parts of Argo CD's `v1alpha1.Application` that the fake keeps, as its REST API names them. */
export interface ApplicationSource {
  repoURL: string;
  path: string;
  targetRevision: string;
}

export interface HistoryEntry {
  id: number;
  revision: string;
  deployedAt: string;
  source: ApplicationSource;
}

export interface ResourceStatus {
  group?: string;
  kind: string;
  namespace: string;
  name: string;
  status: "Synced" | "OutOfSync";
  health?: { status: string; message?: string };
}

export interface Application {
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: {
    project: string;
    source: ApplicationSource;
    destination: { server: string; namespace: string };
    syncPolicy?: { automated?: { prune?: boolean; selfHeal?: boolean } };
  };
  status: {
    sync: { status: "Synced" | "OutOfSync" | "Unknown"; revision: string };
    health: {
      status: "Healthy" | "Progressing" | "Degraded" | "Suspended" | "Missing" | "Unknown";
      message?: string;
    };
    history: HistoryEntry[];
    resources: ResourceStatus[];
    operationState?: {
      operation: { sync: { revision: string; prune?: boolean } };
      phase: "Running" | "Succeeded" | "Failed" | "Error";
      message: string;
      startedAt: string;
      finishedAt?: string;
    };
  };
  /** Set by a sync or rollback request until the controller takes it up, as in Argo CD. */
  operation?: { sync: { revision: string; prune?: boolean }; initiatedBy: { username: string } };
}

/** One sync or rollback the fake accepted, for tests. */
export interface ArgoOperation {
  action: "sync" | "rollback";
  application: string;
  revision: string;
  /** The history id a rollback went back to. */
  historyId?: number;
  prune: boolean;
}

export interface ArgoState {
  applications: Application[];
  operations: ArgoOperation[];
}
