// What every integration test starts with: the fake, the real jira.js client pointed at it, and its errors.
import { HttpException, Version3Client } from "jira.js";
import { type FakeJira, type FakeJiraOptions, startFakeJira } from "../src/server.js";

/** Starts the fake and a Version3Client with its Basic credentials; close with `jira.close()`. */
export async function startFakeJiraWithClient(
  options?: FakeJiraOptions,
): Promise<{ jira: FakeJira; client: Version3Client }> {
  const jira = await startFakeJira(options);
  const client = new Version3Client({
    host: jira.url,
    authentication: { basic: { email: jira.email, apiToken: jira.token } },
  });
  return { jira, client };
}

/** The HttpException a call rejects with; throws when it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<HttpException> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpException)) throw new Error(`expected an HttpException, got ${String(error)}`);
  return error;
}
