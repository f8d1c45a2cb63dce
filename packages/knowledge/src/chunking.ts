import { MarkdownTextSplitter } from "@langchain/textsplitters";

export interface ChunkingOptions {
  /** Characters a chunk holds at most (default 1,200: a few paragraphs, well inside every embeddings model's input). */
  chunkSize?: number;
  /** Characters neighbouring chunks share, so a sentence cut at a border is whole in one of them (default 150). */
  chunkOverlap?: number;
}

export interface Chunk {
  ordinal: number;
  /** The document's title: searched with the chunk (weighted above its text) and embedded with it. */
  heading: string;
  text: string;
}

/**
 * A document's chunks, split along Markdown's structure (headings first, then paragraphs, lines,
 * words): plain text splits by paragraphs the same way. A document with no text is one chunk of its title.
 */
export async function chunksOf(title: string, text: string, options: ChunkingOptions = {}): Promise<Chunk[]> {
  const splitter = new MarkdownTextSplitter({
    chunkSize: options.chunkSize ?? 1_200,
    chunkOverlap: options.chunkOverlap ?? 150,
  });
  const parts = (await splitter.splitText(text)).filter((part) => part.trim() !== "");
  return (parts.length > 0 ? parts : [title]).map((part, ordinal) => ({
    ordinal,
    heading: title,
    text: part,
  }));
}

/** What the embeddings model reads for a chunk: its heading, then its text. */
export function embeddingInput(chunk: Chunk): string {
  return `${chunk.heading}\n\n${chunk.text}`;
}
