/**
 * SKILL.md front matter against the Agent Skills specification. These are notices (low or medium), never
 * suspicious: a package that bends the specification is untidy, not dangerous. Lengths count code points.
 */
import type { FindingSink } from './findings.js';
import { SKILL_DESCRIPTION_MAX, SKILL_MD_KEYS, SKILL_NAME_MAX, SKILL_NAME_PATTERN } from '../skill-md.js';

export const COMPATIBILITY_MAX = 500;

function add(sink: FindingSink, file: string, rule: string, severity: 'low' | 'medium', shown: string, message: string): void {
  sink.add(file, { rule, severity, line: null, context: null, text: shown, index: 0, length: shown.length, message });
}

function show(key: string, value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? 'undefined' : JSON.stringify(value);
  return `${key}: ${text}`;
}

/** Checks parsed front matter; `frontMatter` null means SKILL.md has none or it could not be read (`problem`). */
export function checkFrontMatter(sink: FindingSink, path: string, frontMatter: Record<string, unknown> | null, problem?: string): void {
  if (frontMatter === null) {
    add(
      sink,
      path,
      'spec.invalid-front-matter',
      'medium',
      problem ?? 'no front matter',
      problem ?? 'SKILL.md has no YAML front matter with name and description.',
    );
    return;
  }
  const { name, description, compatibility, metadata } = frontMatter;
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name) || [...name].length > SKILL_NAME_MAX) {
    add(
      sink,
      path,
      'spec.name-format',
      'medium',
      show('name', name),
      `name ${JSON.stringify(name)} should be 1 to ${SKILL_NAME_MAX} lower-case letters, digits and single hyphens, not starting or ending with a hyphen.`,
    );
  }
  const folder = path.includes('/') ? path.slice(0, path.indexOf('/')) : null;
  if (folder !== null && typeof name === 'string' && name !== folder) {
    add(
      sink,
      path,
      'spec.name-folder-mismatch',
      'medium',
      `name: ${name} (folder: ${folder})`,
      `name ${JSON.stringify(name)} should equal the folder SKILL.md sits in, ${JSON.stringify(folder)}.`,
    );
  }
  const descriptionLength = typeof description === 'string' ? [...description.trim()].length : 0;
  if (descriptionLength === 0 || descriptionLength > SKILL_DESCRIPTION_MAX) {
    add(
      sink,
      path,
      'spec.description-length',
      'medium',
      show('description', description),
      `description is ${descriptionLength} characters; the specification wants 1 to ${SKILL_DESCRIPTION_MAX}.`,
    );
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || [...compatibility].length > COMPATIBILITY_MAX)) {
    add(
      sink,
      path,
      'spec.compatibility-length',
      'low',
      show('compatibility', compatibility),
      `compatibility should be a string of at most ${COMPATIBILITY_MAX} characters.`,
    );
  }
  if (metadata !== undefined) {
    const ok =
      metadata !== null &&
      typeof metadata === 'object' &&
      !Array.isArray(metadata) &&
      Object.values(metadata).every((v) => typeof v === 'string');
    if (!ok) add(sink, path, 'spec.metadata-type', 'low', show('metadata', metadata), 'metadata should map string keys to string values.');
  }
  // One finding per SKILL.md naming every unexpected field: many packages carry several, and each alone says nothing new.
  const unknown = Object.keys(frontMatter).filter((key) => !SKILL_MD_KEYS.includes(key));
  if (unknown.length > 0) {
    const fields = unknown.map((key) => JSON.stringify(key)).join(', ');
    add(
      sink,
      path,
      'spec.unknown-field',
      'low',
      unknown.map((key) => show(key, frontMatter[key])).join('; '),
      `Front matter field${unknown.length === 1 ? '' : 's'} ${fields} ${unknown.length === 1 ? 'is' : 'are'} not among ${SKILL_MD_KEYS.join(', ')}; put ${unknown.length === 1 ? 'it' : 'them'} under metadata.`,
    );
  }
}
