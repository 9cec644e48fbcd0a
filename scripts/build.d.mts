/** One part of the build: what it is built from, what it leaves, and the command that builds it. */
export interface BuildPart {
  name: string;
  inputs: string[];
  outputs: string[];
  command: string[];
  after?: () => void;
}
export function fingerprint(root: string, inputs: string[]): string;
export function projectParts(root?: string): BuildPart[];
export function staleParts(root: string, parts: BuildPart[]): BuildPart[];
export function build(root: string, parts: BuildPart[], options?: { force?: boolean; log?: (line: string) => void }): string[];
