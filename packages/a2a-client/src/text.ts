import type { Artifact, Message, Part } from "@a2a-js/sdk";

/**
 * The metadata key of a data part Switchboard adds beside an answer's text for the clients that
 * render it (`sources`: the supervisor's citations): not part of the answer's text.
 */
export const SWITCHBOARD_PART_TYPE = "switchboard/type";

/**
 * The readable text of one v1 Part: text as is; a data part as JSON (CAIPE agents put structured
 * answers there), except Switchboard's own additions (SWITCHBOARD_PART_TYPE); file parts (raw
 * bytes, URLs) have no text.
 */
export function partText(part: Part): string {
  const content = part.content;
  if (!content || part.metadata?.[SWITCHBOARD_PART_TYPE] !== undefined) return "";
  switch (content.$case) {
    case "text":
      return content.value;
    case "data":
      return content.value === undefined ? "" : JSON.stringify(content.value);
    default:
      return "";
  }
}

/**
 * The parts' text joined, by default without separators: streamed chunks were split mid-sentence by
 * the agent. Parts without text are left out.
 */
export function partsText(parts: readonly Part[] | undefined, separator = ""): string {
  return (parts ?? []).map(partText).filter(Boolean).join(separator);
}

export function messageText(message: Message | undefined): string {
  return partsText(message?.parts);
}

export function artifactText(artifact: Artifact | undefined): string {
  return partsText(artifact?.parts);
}
