// What every malicious family module shares: hosts an attacker would use, and the assembly of a plausible skill
// around a payload.
import type { RuleFamily } from '@skill-registry/skill-package/scan/types';
import { rng, type Rng } from '../prng.js';
import { topicSkillMd, variantName, type SkillOptions } from '../render.js';
import { packageFiles, pad2, type Sample, type SampleFile } from '../sample.js';
import { TOPICS, type Topic } from '../topics.js';

/** Hosts no install guide would name: documentation-range addresses, throwaway tunnels, odd top-level domains. */
export const BAD_HOSTS = [
  '203.0.113.47',
  '198.51.100.23',
  '192.0.2.181',
  '45.153.20.7',
  'cdn-update-check.top',
  'pkg-mirror-sync.xyz',
  'fastdl-assets.click',
  'static-cache-node.su',
  'telemetry-collector.icu',
  'agent-tools-update.online',
  'quiet-river-1942.trycloudflare.com',
  'f3a9-88-12-4-201.ngrok-free.app',
  'raw-cdn.githubassets.net.co',
  'updates.skill-hub-cdn.cc',
];

/** Where stolen data is sent: request catchers, chat webhooks, bare addresses. */
export function exfilUrl(r: Rng): string {
  const kinds = [
    () =>
      `https://webhook.site/${r.chars('0123456789abcdef', 8)}-${r.chars('0123456789abcdef', 4)}-4${r.chars('0123456789abcdef', 3)}-a${r.chars('0123456789abcdef', 3)}-${r.chars('0123456789abcdef', 12)}`,
    () =>
      `https://discord.com/api/webhooks/${r.chars('0123456789', 18)}/${r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-', 68)}`,
    () => `http://${r.pick(BAD_HOSTS)}:${r.pick([8080, 443, 4444, 9001, 8443])}/${r.pick(['collect', 'upload', 'v1/ingest', 'log', 'c'])}`,
    () => `https://${r.chars('abcdefghijklmnopqrstuvwxyz0123456789', 20)}.oast.fun/${r.pick(['d', 'x', 'in'])}`,
    () => `https://${r.pick(BAD_HOSTS)}/api/${r.pick(['sync', 'metrics', 'report', 'telemetry'])}`,
  ];
  return r.pick(kinds)();
}

export function badHost(r: Rng): string {
  return r.pick(BAD_HOSTS);
}

export function badUrl(r: Rng, file: string): string {
  const host = r.pick(BAD_HOSTS);
  const scheme = /^\d/.test(host) ? 'http' : r.pick(['https', 'http']);
  return `${scheme}://${host}/${r.pick(['', 'dl/', 'static/', 'v2/', 'files/'])}${file}`;
}

export interface MaliciousSpec {
  id: string;
  families: RuleFamily[];
  note: string;
  /** Text placed into SKILL.md. */
  skill?: SkillOptions;
  /** Files beside SKILL.md (paths relative to the skill's folder). */
  files?: SampleFile[];
  /** Ship the topic's honest helper script too. */
  withScript?: boolean;
  topic?: Topic;
  /** null: at the root; a string: that folder; undefined: chosen at random (the skill's name). */
  folder?: string | null;
  /** A SKILL.md written whole, instead of the topic's. */
  skillMd?: string;
}

/** A malicious package dressed as an ordinary skill. */
export function maliciousSample(r: Rng, spec: MaliciousSpec): Sample {
  const topic = spec.topic ?? r.pick(TOPICS);
  const name = spec.skill?.name ?? variantName(r, topic);
  const skillMd = spec.skillMd ?? topicSkillMd(r, topic, { ...spec.skill, name });
  const files = [...(spec.withScript ? [{ path: topic.script.file, content: topic.script.code }] : []), ...(spec.files ?? [])];
  const folder = spec.folder === undefined ? (r.chance(0.4) ? name : null) : spec.folder;
  return { id: spec.id, label: 'malicious', families: spec.families, note: spec.note, files: packageFiles(skillMd, files, folder) };
}

export function topicBySlug(slug: string): Topic {
  const topic = TOPICS.find((t) => t.slug === slug);
  if (!topic) throw new Error(`no topic ${slug}`);
  return topic;
}

/** One behaviour's variants, each a spec without its id. */
export type BehaviourVariant = (r: Rng) => Omit<MaliciousSpec, 'id'>;

/**
 * The samples of a table of behaviours, drawn from the seed `seed` in the table's order, with ids
 * `<prefix>-<behaviour>-NN`.
 */
export function behaviourTableSamples(seed: string, prefix: string, table: readonly [string, BehaviourVariant[]][]): Sample[] {
  const r = rng(seed);
  const out: Sample[] = [];
  for (const [behaviour, variants] of table)
    variants.forEach((variant, i) => {
      out.push({ ...maliciousSample(r, { ...variant(r), id: `${prefix}-${behaviour}-${pad2(i + 1)}` }), behaviour });
    });
  return out;
}
