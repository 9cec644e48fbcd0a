/**
 * How deep the documents the registry takes may nest: JSON bodies, an upload's `metadata`, SKILL.md front matter.
 * Reading, storing and sending a value walks it level by level on the call stack (JSON.stringify, the YAML
 * composer), so a document nested thousands of levels deep would overflow the stack wherever it is next read.
 * Both checks here use an explicit stack or a counter, never recursion, so they cannot overflow themselves.
 */

/**
 * The most objects and arrays (mappings and lists) nested inside one another, the outermost one included: `{}` is
 * one level, `{"a":[1]}` two. Real metadata and front matter use two or three; 64 leaves room for any document
 * written by hand or generated from a configuration. The server and the packages read the limit from here
 * (`@skill-registry/rules/limits` re-exports it).
 */
export const NESTING_MAX = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects more than `max` levels deep, read from the text before it is parsed:
 * each `[` or `{` outside a string opens a level, each `]` or `}` closes one. Text that is not JSON gets an answer
 * too; JSON.parse refuses it afterwards.
 */
export function jsonNestsDeeper(text: string, max = NESTING_MAX): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** The values a container holds: an array's items, a Set's members, a Map's keys and values, an object's own values. */
function childrenOf(value: object): unknown[] | null {
  if (Array.isArray(value)) return value as unknown[];
  if (value instanceof Set) return [...(value as Set<unknown>)];
  if (value instanceof Map) return [...(value as Map<unknown, unknown>).entries()].flat();
  if (value instanceof Date || ArrayBuffer.isView(value)) return null;
  return Object.values(value) as unknown[];
}

interface Frame {
  value: object;
  children: unknown[];
  next: number;
  /** The levels below this one found so far. */
  below: number;
}

/**
 * Whether a parsed value nests containers more than `max` levels deep. A value reached twice (YAML aliases share
 * what they name) is measured once; a value that contains itself nests without end and is always too deep.
 */
export function valueNestsDeeper(root: unknown, max = NESTING_MAX): boolean {
  const frame = (value: unknown): Frame | null => {
    if (typeof value !== 'object' || value === null) return null;
    const children = childrenOf(value);
    return children === null ? null : { value, children, next: 0, below: 0 };
  };
  const first = frame(root);
  if (first === null) return false;
  if (max < 1) return true;
  /** The levels each finished container spans, itself included. */
  const spans = new Map<object, number>();
  const open = new Set<object>([first.value]);
  const stack: Frame[] = [first];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.children.length) {
      stack.pop();
      open.delete(top.value);
      const span = top.below + 1;
      spans.set(top.value, span);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.below = Math.max(parent.below, span);
      continue;
    }
    const child = top.children[top.next++];
    if (typeof child !== 'object' || child === null) continue;
    if (open.has(child)) return true;
    const known = spans.get(child);
    if (known !== undefined) {
      if (stack.length + known > max) return true;
      top.below = Math.max(top.below, known);
      continue;
    }
    const next = frame(child);
    if (next === null) continue;
    if (stack.length + 1 > max) return true;
    open.add(child);
    stack.push(next);
  }
  return false;
}
