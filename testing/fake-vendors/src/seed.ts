/**
 * A fake's seed: some parts of its state, in the fake's own shape (its exported state types), each
 * replacing that part of the default state whole, as fake Jira's and fake GitHub's seeds do. What a
 * fake records as it runs (its change log, id counters) is not a part one can seed.
 *
 * Checked here, once for every fake: the seed is an object naming only parts the fake takes, each a
 * list where the default is a list and an object where it is an object; and it is copied, so a fake
 * never changes the object it was given (an evaluation runs one case several times from one seed).
 */
export function seedParts<S extends object>(
  vendor: string,
  defaults: S,
  seed: unknown,
  parts: readonly (keyof S & string)[],
): Partial<S> {
  if (seed === undefined || seed === null) return {};
  const takes = `it takes ${parts.join(", ")}, each replacing that part of its default state`;
  if (typeof seed !== "object" || Array.isArray(seed))
    throw new Error(`The ${vendor} seed must be an object of parts of its state: ${takes}.`);
  const named = Object.keys(seed);
  const unknown = named.filter((name) => !(parts as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `The ${vendor} seed names ${unknown.join(", ")}, which is not a part it takes: ${takes}.`,
    );
  for (const name of named) {
    const value = (seed as Record<string, unknown>)[name];
    const wanted = (defaults as Record<string, unknown>)[name];
    const list = Array.isArray(wanted);
    if (Array.isArray(value) !== list || typeof value !== "object" || value === null)
      throw new Error(`The ${vendor} seed's ${name} must be ${list ? "a list" : "an object"}.`);
  }
  return structuredClone(seed) as Partial<S>;
}

/** The next free number after the seeded ids, so what the API creates never takes a seeded one's. */
export function nextAfter(start: number, ids: readonly (number | string | undefined)[]): number {
  return Math.max(
    start,
    ...ids
      .map((id) => Number(id))
      .filter(Number.isFinite)
      .map((id) => id + 1),
  );
}
