/** Splits what a person types into a tags box: commas or white space separate tags. */
export function splitTags(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}
