// The small and the slightly irregular: skills of a few lines, and skills whose front matter bends the Agent
// Skills conventions (a name in capitals or not matching its folder, unknown keys, an overlong description,
// CRLF line ends, a byte-order mark). Those are notices for a reviewer, not harm.
import { rng, type Rng } from '../prng.js';
import { pad2, yamlValue, type Sample } from '../sample.js';
import { TOPICS } from '../topics.js';
import { benignSample } from './common.js';

const TINY: [string, string, string][] = [
  [
    'tab-to-spaces',
    'Converts tabs to spaces in the files the user names.',
    'Replace each tab with the number of spaces the project uses (check .editorconfig; default 2).',
  ],
  ['title-case', 'Rewrites headings in title case.', 'Keep articles and short prepositions lower case unless they start the heading.'],
  ['uuid', 'Generates UUIDs on request.', 'Use `python -c "import uuid; print(uuid.uuid4())"` and print one per line.'],
  ['word-count', 'Counts words in a file or the selection.', 'Use `wc -w` for files; for Markdown, ignore code blocks.'],
  ['timezones', 'Converts a time between time zones.', 'Always state both zones and whether daylight saving applies on that date.'],
  ['slugify', 'Turns a title into a URL slug.', 'Lower case, ASCII only, words joined by hyphens, at most 60 characters.'],
  ['json-pretty', 'Pretty-prints JSON.', 'Use `jq .`; if the input is not valid JSON, say where it breaks.'],
  ['commit-lint', 'Checks a commit subject line.', 'Imperative mood, no trailing period, at most 72 characters.'],
  ['units', 'Converts between units.', 'Show the formula and round to three significant figures.'],
  ['todo-finder', 'Lists TODO and FIXME comments.', 'Use `grep -rn "TODO\\|FIXME" --include=*.{js,ts,py} .` and group by file.'],
  ['dice', 'Rolls dice for tabletop games.', 'Parse notation like 2d6+3 and show each roll.'],
  ['haiku', 'Writes a haiku about the topic given.', 'Five, seven, five syllables; no rhyme needed.'],
  ['color-contrast', 'Checks the contrast of two colours.', 'Compute the WCAG contrast ratio; 4.5:1 is needed for body text.'],
  [
    'cron-explain',
    'Explains a cron expression in words.',
    'Read the five fields in order: minute, hour, day of month, month, day of week. Explaining `*/15 * * * *` means "every 15 minutes".',
  ],
  ['semver-bump', 'Suggests the next version number.', 'Breaking change: major; new feature: minor; fix: patch.'],
];

function tiny(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const [base, description, instruction] = TINY[i % TINY.length]!;
    const name = i < TINY.length ? base : `${base}-${r.pick(['quick', 'simple', 'mini', 'plus'])}`;
    const skillMd = r.chance(0.5)
      ? `---\nname: ${name}\ndescription: ${yamlValue(description)}\n---\n\n${instruction}\n`
      : `---\nname: ${name}\ndescription: ${yamlValue(description)}\n---\n# ${name}\n\n${instruction}\n`;
    out.push(benignSample(r, { id: `ben-min-tiny-${pad2(i + 1)}`, note: `A tiny skill of a few lines (${name})`, name, skillMd }));
  }
  return out;
}

function irregular(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[(i * 7) % TOPICS.length]!;
    const body = `# ${topic.title}\n\n${topic.steps.map((s, k) => `${k + 1}. ${s}`).join('\n')}\n`;
    const variant = i % 8;
    let skillMd: string;
    let folder: string | null | undefined;
    let note: string;
    if (variant === 0) {
      skillMd = `---\nname: ${topic.title}\ndescription: ${yamlValue(topic.description)}\n---\n\n${body}`;
      note = 'Front matter name in title case with spaces (a naming notice)';
    } else if (variant === 1) {
      skillMd = `---\nname: ${topic.slug.replace(/-/g, '_')}\ndescription: ${yamlValue(topic.description)}\n---\n\n${body}`;
      note = 'Front matter name with underscores (a naming notice)';
    } else if (variant === 2) {
      skillMd = `---\nname: ${topic.slug}\ndescription: ${yamlValue(topic.description)}\n---\n\n${body}`;
      folder = `${topic.slug}-main`;
      note = 'Folder name differs from the front matter name (as a zip of a repository branch does)';
    } else if (variant === 3) {
      skillMd = `---\nname: ${topic.slug}\ndescription: ${yamlValue(topic.description)}\nversion: 1.2.0\nauthor: Jordan Lee\ntags: [productivity, ${topic.slug.split('-')[0]}]\n---\n\n${body}`;
      note = 'Unknown front matter keys (version, author, tags)';
    } else if (variant === 4) {
      const long = `${topic.description} ${topic.when.join('. ')}. ${topic.steps.join('. ')}. `.repeat(6).trim();
      skillMd = `---\nname: ${topic.slug}\ndescription: ${JSON.stringify(long)}\n---\n\n${body}`;
      note = 'A description longer than 1,024 characters (a length notice)';
    } else if (variant === 5) {
      skillMd = `---\nname: ${topic.slug}\ndescription: ${yamlValue(topic.description)}\n---\n\n${body}`.replace(/\n/g, '\r\n');
      note = 'SKILL.md with CRLF line ends';
    } else if (variant === 6) {
      skillMd = `\ufeff---\nname: ${topic.slug}\ndescription: ${yamlValue(topic.description)}\nlicense: Apache-2.0\nmetadata:\n  owner: platform-team\n  reviewed: "2024-11-02"\n---\n\n${body}`;
      note = 'SKILL.md starting with a UTF-8 byte-order mark, with license and metadata keys';
    } else {
      skillMd = `---\nname: ${topic.slug.toUpperCase()}\ndescription: ${yamlValue(topic.description)}\nallowed-tools: Read Grep Glob\n---\n\n${body}`;
      note = 'Front matter name in capitals, with allowed-tools';
    }
    out.push(benignSample(r, { id: `ben-min-irregular-${pad2(i + 1)}`, note, name: topic.slug, skillMd, folder }));
  }
  return out;
}

export function minimalSamples(): Sample[] {
  const r = rng('benign/minimal');
  return [...tiny(r, 20), ...irregular(r, 16)];
}
