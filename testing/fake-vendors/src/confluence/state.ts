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
}

export interface Space {
  key: string;
  name: string;
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
