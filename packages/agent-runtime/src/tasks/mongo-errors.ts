/** Driver errors that mean MongoDB could not be reached (a write is worth trying again later). */
const UNREACHABLE = new Set(["MongoServerSelectionError", "MongoNetworkError", "MongoNetworkTimeoutError"]);

export function mongoUnreachable(error: unknown): boolean {
  return UNREACHABLE.has((error as { name?: string }).name ?? "");
}

/** A store that cannot be reached is named as such; the SDK passes the message to the caller. */
export async function unavailableAsError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const name = (error as { name?: string }).name ?? "";
    if (!name.startsWith("Mongo")) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Cannot reach MongoDB to store this A2A task (${reason}); try again once MongoDB is back.`,
    );
  }
}
