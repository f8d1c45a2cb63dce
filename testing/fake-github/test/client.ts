// What every integration test starts with: the fake, the real Octokit pointed at it, and its errors.
import { Octokit, RequestError } from "octokit";
import { type FakeGithub, type FakeGithubOptions, startFakeGithub } from "../src/server.js";

/** Starts the fake and an Octokit that sends the fake's token; close with `github.close()`. */
export async function startFakeGithubWithOctokit(
  options?: FakeGithubOptions,
): Promise<{ github: FakeGithub; octokit: Octokit }> {
  const github = await startFakeGithub(options);
  // Octokit's throttling spaces out content-creating POSTs by seconds; the fake needs no such care.
  const octokit = new Octokit({ auth: github.token, baseUrl: github.url, throttle: { enabled: false } });
  return { github, octokit };
}

/** The RequestError a call rejects with; throws when it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<RequestError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof RequestError)) throw new Error(`expected a RequestError, got ${String(error)}`);
  return error;
}
