// Writes a topic's SKILL.md with varied headings, order and wording, and places extra text where a sample wants it.
import type { Rng } from './prng.js';
import { frontMatter } from './sample.js';
import type { Topic } from './topics.js';

export type InsertAt = 'intro' | 'when' | 'steps' | 'example' | 'end';

export interface Insert {
  at: InsertAt;
  text: string;
}

export interface SkillOptions {
  name?: string;
  description?: string;
  extra?: string[];
  inserts?: Insert[];
  /** Mention the topic's helper script (or another file) in the instructions. */
  mentions?: string[];
}

const NAME_PREFIXES = ['', '', '', 'team-', 'quick-', 'smart-', 'auto-', 'my-'];
const NAME_SUFFIXES = ['', '', '', '-pro', '-lite', '-kit', '-assistant', '-helper', '-tool', '-v2'];

/** A skill name derived from the topic, varied so that many packages of one topic do not share a name. */
export function variantName(r: Rng, topic: Topic): string {
  const name = `${r.pick(NAME_PREFIXES)}${topic.slug}${r.pick(NAME_SUFFIXES)}`;
  return name.replace(/--+/g, '-');
}

const WHEN_HEADINGS = ['## When to use', '## When to use this skill', '## Use it when', '## Triggers', '### When'];
const STEP_HEADINGS = ['## Instructions', '## Steps', '## How it works', '## Workflow', '## Procedure'];
const EXAMPLE_HEADINGS = ['## Example', '## Examples', '## Usage', '## Quick start', '### Example'];
const NOTE_HEADINGS = ['## Notes', '## Tips', '## Caveats', '## Good to know'];
const INTROS = [
  (t: Topic) => `This skill helps with ${t.title.toLowerCase()} tasks.`,
  (t: Topic) => `${t.description.split('. ')[0]}.`,
  (t: Topic) => `Use this skill to handle ${t.title.toLowerCase()} work consistently.`,
  (t: Topic) => `A small, focused skill: ${t.title.toLowerCase()}.`,
  () => 'Follow the steps below in order and report what you did at the end.',
];
const NOTES = [
  'Ask the user before changing files outside the working directory.',
  'Keep the output short; link to files rather than pasting them whole.',
  'If a step fails, stop and show the error rather than guessing.',
  'Prefer the tools already installed in the project.',
  'Work on a copy when the input is the only one the user has.',
  'Mention any assumption you made in the final summary.',
];

function place(inserts: Insert[] | undefined, at: InsertAt): string[] {
  return (inserts ?? []).filter((i) => i.at === at).map((i) => i.text);
}

/** The body of SKILL.md (below the front matter). */
export function skillBody(r: Rng, topic: Topic, options: SkillOptions = {}): string {
  const out: string[] = [];
  out.push(`# ${r.chance(0.7) ? topic.title : (options.name ?? topic.slug)}`, '');
  out.push(r.pick(INTROS)(topic), '');
  out.push(...place(options.inserts, 'intro').flatMap((t) => [t, '']));

  const when = [r.pick(WHEN_HEADINGS), '', ...topic.when.map((w) => `- ${w}`), ''];
  const numbered = r.chance(0.7);
  const steps = [
    r.pick(STEP_HEADINGS),
    '',
    ...topic.steps.map((s, i) => (numbered ? `${i + 1}. ${s}` : `- ${s}`)),
    ...(options.mentions ?? []).map((m, i) =>
      numbered ? `${topic.steps.length + i + 1}. Run \`${m}\` when needed.` : `- Run \`${m}\` when needed.`,
    ),
    '',
  ];
  const whenPart = [...when, ...place(options.inserts, 'when').flatMap((t) => [t, ''])];
  const stepPart = [...steps, ...place(options.inserts, 'steps').flatMap((t) => [t, ''])];
  out.push(...(r.chance(0.8) ? [...whenPart, ...stepPart] : [...stepPart, ...whenPart]));

  out.push(r.pick(EXAMPLE_HEADINGS), '', '```' + topic.example.lang, topic.example.code, '```', '');
  out.push(...place(options.inserts, 'example').flatMap((t) => [t, '']));
  if (r.chance(0.6)) {
    out.push(r.pick(NOTE_HEADINGS), '', ...r.some(NOTES, r.int(1, 3)).map((n) => `- ${n}`), '');
  }
  out.push(...place(options.inserts, 'end').flatMap((t) => [t, '']));
  return out.join('\n');
}

/** A whole SKILL.md for a topic. */
export function topicSkillMd(r: Rng, topic: Topic, options: SkillOptions = {}): string {
  const name = options.name ?? topic.slug;
  const fm = frontMatter(r, { name, description: options.description ?? topic.description, extra: options.extra });
  return `${fm}\n${skillBody(r, topic, { ...options, name })}`;
}
