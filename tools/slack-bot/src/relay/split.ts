const FENCE = "```";

/**
 * Splits formatted text into messages of at most `max` characters, at paragraph or line ends where it
 * can; a code block cut in two is closed at the end of one part and opened again in the next.
 */
export function splitMessage(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const room = max - FENCE.length - 1;
    const window = rest.slice(0, room);
    let cut = window.lastIndexOf("\n\n");
    if (cut < room / 2) cut = window.lastIndexOf("\n");
    if (cut < room / 2) cut = window.lastIndexOf(" ");
    if (cut < room / 2) cut = room;
    let part = rest.slice(0, cut).trimEnd();
    rest = rest.slice(cut).replace(/^\n+/, "");
    if (openFence(part)) {
      part = `${part}\n${FENCE}`;
      rest = `${FENCE}\n${rest}`;
    }
    parts.push(part);
  }
  if (rest.trim() !== "") parts.push(rest);
  return parts;
}

function openFence(text: string): boolean {
  return (text.split(FENCE).length - 1) % 2 === 1;
}
