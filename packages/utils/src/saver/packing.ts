// How stored bytes are packed: deflated with the preset dictionary when that is smaller.
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { Binary } from "mongodb";
import { DICTIONARY_1 } from "./dictionary.js";
import type { CheckpointDoc } from "./documents.js";

/** Shorter serialized values are stored as they are: deflate would not make them smaller. */
const MIN_PACKED_BYTES = 24;
/** Type suffixes: deflated with DICTIONARY_1, and (format 2, still read) without a dictionary. */
const PACKED = "+zd1";
const PACKED_WITHOUT_DICTIONARY = "+deflate";

/** A serialized value as stored: deflated with the preset dictionary when that is smaller. */
export function pack(type: string, bytes: Uint8Array): { type: string; data: Binary } {
  if (bytes.byteLength >= MIN_PACKED_BYTES) {
    const packed = deflateRawSync(bytes, { dictionary: DICTIONARY_1 });
    if (packed.byteLength < bytes.byteLength) return { type: type + PACKED, data: new Binary(packed) };
  }
  return { type, data: new Binary(bytes) };
}

/** The serializer's type and bytes of a stored value. */
export function unpack(type: string, data: Binary): { type: string; bytes: Uint8Array } {
  const bytes = bytesOf(data);
  if (type.endsWith(PACKED)) {
    return {
      type: type.slice(0, -PACKED.length),
      bytes: inflateRawSync(bytes, { dictionary: DICTIONARY_1 }),
    };
  }
  if (type.endsWith(PACKED_WITHOUT_DICTIONARY)) {
    return { type: type.slice(0, -PACKED_WITHOUT_DICTIONARY.length), bytes: inflateRawSync(bytes) };
  }
  return { type, bytes };
}

/** A checkpoint's or its metadata's serialized bytes as stored in one of our documents. */
export function packBody(bytes: Uint8Array): Binary {
  return new Binary(deflateRawSync(bytes, { dictionary: DICTIONARY_1 }));
}

/** The serialized checkpoint and metadata of one of our documents. */
export function unpackBodies(doc: CheckpointDoc): { checkpoint: Uint8Array; metadata: Uint8Array } {
  if (doc.format === 2) {
    return { checkpoint: inflateRawSync(bytesOf(doc.checkpoint)), metadata: bytesOf(doc.metadata) };
  }
  const options = { dictionary: DICTIONARY_1 };
  return {
    checkpoint: inflateRawSync(bytesOf(doc.checkpoint), options),
    metadata: inflateRawSync(bytesOf(doc.metadata), options),
  };
}

export function bytesOf(data: Binary): Uint8Array {
  return data.buffer.subarray(0, data.length());
}

/**
 * The same bytes in a buffer of their own, for a value kept for long. zlib's output is a view into
 * its 16 KB working chunk and a document read from MongoDB into the whole reply: a small value
 * kept as it came would hold on to all of that.
 */
export function ownBytes(data: Binary): Binary {
  const bytes = bytesOf(data);
  if (bytes.byteLength === bytes.buffer.byteLength) return data;
  return new Binary(new Uint8Array(bytes), data.sub_type);
}

/** A stored value's `t`, left out for plain "json" (most values). */
export function typeField(type: string): { t?: string } {
  return type === "json" ? {} : { t: type };
}
