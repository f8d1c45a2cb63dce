// How relevant a memory is to a message: by embeddings when configured, by shared words otherwise.

const STOP_WORDS = new Set(
  "a an and are as at be but by can do for from has have how i in is it its me my of on or our so that the their them there they this to us was we what when where which who why will with you your".split(
    " ",
  ),
);

/** The words that carry meaning, lower-cased, each once. */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u)) {
    if (word.length > 1 && !STOP_WORDS.has(word)) terms.add(word);
  }
  return terms;
}

/** Shared meaningful words, weighted so a short memory that matches beats a long one that matches as much. */
export function textScore(query: Set<string>, memory: Set<string>): number {
  if (query.size === 0 || memory.size === 0) return 0;
  let shared = 0;
  for (const term of query) if (memory.has(term)) shared += 1;
  return shared / Math.sqrt(memory.size);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Tokens as the context budget counts them (characters / 4, as langchain's approximate counter). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
