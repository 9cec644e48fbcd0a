/**
 * External references: every external http(s) URL and its host are collected for the report (deduplicated,
 * capped), and notable destinations are reported — public raw IP addresses, request collectors / paste sites /
 * file drops / tunnels / chat webhooks, and URL shorteners. In a script these weigh one step more than in
 * Markdown, since the script contacts them when it runs.
 */
import { weightsOf } from './catalogue.js';
import type { LineInput } from './file-state.js';
import { report } from './report.js';
import { inContext, type ContextSeverities } from './severity.js';
import { ownCopy } from './own-copy.js';
import { findUrls, urlDestination } from './urls.js';

export const MAX_URLS = 200;
export const MAX_DOMAINS = 200;

/** A chat webhook or bot API (hosts.ts): how a skill notifies its user, a notice unless credentials go with it. */
const MESSAGING: ContextSeverities = { script: 'medium', code: 'low', prose: 'low' };
const MESSAGING_NOTE =
  'A chat webhook or bot API receives whatever is posted to it. Notifying the user this way is common; sending credentials or the environment there is how stolen data leaves, so the package is weighed again if it also reads them.';

const RULE_OF = { 'raw-ip': 'url.raw-ip', collector: 'url.collector', messaging: 'url.collector', shortener: 'url.shortener' } as const;

export class UrlCollector {
  readonly urls = new Set<string>();
  readonly domains = new Set<string>();

  scan(input: LineInput): void {
    if (!input.text.includes('://')) return;
    for (const found of findUrls(input.text)) {
      const kind = urlDestination(found);
      if (kind === 'local') continue;
      if (this.urls.size < MAX_URLS && !this.urls.has(found.url)) this.urls.add(ownCopy(found.url));
      if (this.domains.size < MAX_DOMAINS) this.domains.add(found.host);
      if (kind !== null) {
        const rule = RULE_OF[kind];
        // Once the file has dumped the environment or read credentials, a chat destination is where they go.
        const taken = input.file.facts.has('env-dump') || input.file.facts.has('credential-read');
        if (kind === 'messaging' && !taken)
          report(input, rule, inContext(MESSAGING, input.context), found.index, found.url.length, MESSAGING_NOTE);
        else report(input, rule, inContext(weightsOf(rule), input.context), found.index, found.url.length);
      }
    }
  }
}
