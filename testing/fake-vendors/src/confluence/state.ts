/** A Confluence page as the fake keeps it; answers use the REST API v1 content shape. */
export interface Page {
  id: string;
  title: string;
  spaceKey: string;
  /** Storage format (Confluence's XHTML). */
  body: string;
  version: number;
  updatedAt: string;
  updatedBy: string;
  parentId?: string;
  /** Its read restriction: only these groups and users (accountIds) may read it (and its children). */
  restrictions?: Grantees;
}

/** Groups by name and users by accountId. */
export interface Grantees {
  groups?: string[];
  users?: string[];
}

export interface Space {
  key: string;
  name: string;
  /**
   * Who may read the space (its read permission): anonymous access, or groups and users. Unset: the
   * `confluence-users` group, as a new Confluence space grants.
   */
  permissions?: Grantees & { anonymous?: boolean };
}

/** A page created or updated through the API, for tests. */
export interface PageChange {
  action: "create" | "update";
  pageId: string;
  title: string;
  version: number;
}

export interface ConfluenceState {
  spaces: Space[];
  pages: Page[];
  changes: PageChange[];
  nextId: number;
}
