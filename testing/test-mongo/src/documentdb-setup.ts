import type { TestProject } from "vitest/node";
import { documentDbAbsence, documentDbTestUri, documentDbToolsDir, startDocumentDb } from "./documentdb.js";
import { DOCUMENTDB_STATUS_KEY, DOCUMENTDB_URI_KEY, type DocumentDbStatus } from "./inject.js";

/**
 * Vitest global setup: one DocumentDB for the whole run, stopped afterwards. DOCUMENTDB_URI uses one
 * that is already running; otherwise it is started from `../shared/tools/documentdb` beside the
 * repository when that exists. A start that fails is reported to the tests (they fail, see
 * describeOnDocumentDb) rather than thrown here, so the package's other tests still run.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const provide = project.provide as (key: string, value: unknown) => void;
  const report = (status: DocumentDbStatus) => {
    provide(DOCUMENTDB_STATUS_KEY, status);
    provide(DOCUMENTDB_URI_KEY, status.state === "running" ? status.uri : undefined);
  };
  const external = process.env.DOCUMENTDB_URI;
  if (external) {
    report({ state: "running", uri: documentDbTestUri(external) });
    return undefined;
  }
  const toolsDir = documentDbToolsDir();
  const absent = documentDbAbsence(toolsDir);
  if (absent) {
    report({ state: "absent", reason: absent });
    return undefined;
  }
  const started = Date.now();
  try {
    const documentDb = await startDocumentDb({ toolsDir });
    process.stderr.write(`DocumentDB from ${toolsDir} started in ${Date.now() - started} ms\n`);
    report({ state: "running", uri: documentDbTestUri(documentDb.uri) });
    return () => documentDb.stop();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`DocumentDB from ${toolsDir} did not start: ${reason}\n`);
    report({ state: "failed", reason });
    return undefined;
  }
}
