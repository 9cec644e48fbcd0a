/**
 * What a host name or address says about a destination: local or documentation-only (not external at all), a
 * public raw IP address, a request collector / paste / file-drop / tunnel / chat-webhook service, or a URL
 * shortener. Lists hold services, never particular URLs.
 */
import { ownCopy } from './own-copy.js';

/** Services that receive arbitrary requests or files: where stolen data is typically sent. */
const COLLECTORS = [
  'webhook.site',
  'requestbin.com',
  'requestbin.net',
  'requestcatcher.com',
  'pipedream.net',
  'pipedream.com',
  'beeceptor.com',
  'hookbin.com',
  'mockbin.org',
  'postb.in',
  'ptsv2.com',
  'ptsv3.com',
  'requestinspector.com',
  'webhook.cool',
  'interact.sh',
  'oast.pro',
  'oast.live',
  'oast.site',
  'oast.online',
  'oast.fun',
  'oast.me',
  'burpcollaborator.net',
  'oastify.com',
  'canarytokens.com',
  'dnslog.cn',
  'ngrok.io',
  'ngrok.app',
  'ngrok-free.app',
  'ngrok.dev',
  'trycloudflare.com',
  'loca.lt',
  'localtunnel.me',
  'serveo.net',
  'localhost.run',
  'lhr.life',
  'pinggy.io',
  'bore.pub',
  'pastebin.com',
  'paste.ee',
  'hastebin.com',
  'ghostbin.com',
  'rentry.co',
  'dpaste.org',
  'dpaste.com',
  'termbin.com',
  'ix.io',
  'sprunge.us',
  'transfer.sh',
  'file.io',
  '0x0.st',
  'temp.sh',
  'bashupload.com',
  'oshi.at',
  'gofile.io',
  'anonfiles.com',
  'catbox.moe',
  'litterbox.catbox.moe',
];

/**
 * Chat webhooks and bot APIs: they deliver whatever is posted to a chat, and a skill that notifies its user posts
 * there with its own token every day. A messaging destination weighs as a notice (rules-url.ts) unless the package
 * also reads credentials or dumps the environment (combine.ts, rules-command.ts).
 */
const MESSAGING_PATHS = new Map<string, RegExp>([
  ['discord.com', /^\/api\/webhooks\//i],
  ['discordapp.com', /^\/api\/webhooks\//i],
  ['ptb.discord.com', /^\/api\/webhooks\//i],
  ['canary.discord.com', /^\/api\/webhooks\//i],
  ['api.telegram.org', /^\/bot/i],
  ['hooks.slack.com', /^\/(?:services|workflows|triggers)\//i],
]);

const SHORTENERS = [
  'bit.ly',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'is.gd',
  'v.gd',
  'ow.ly',
  'rb.gy',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'buff.ly',
  'rebrand.ly',
  'bl.ink',
  't.ly',
  'shorturl.com',
  's.id',
  'qrco.de',
  'lnkd.in',
  'surl.li',
];

/** Public resolvers and similar well-known addresses, used in connectivity checks. */
const WELL_KNOWN_IPS = new Set(['1.1.1.1', '1.0.0.1', '8.8.8.8', '8.8.4.4', '9.9.9.9', '149.112.112.112', '208.67.222.222']);

const COLLECTOR_SET = new Set(COLLECTORS);
const SHORTENER_SET = new Set(SHORTENERS);

/**
 * Whether `host` or one of its parent domains is a collector, else a shortener (`a.b.ngrok.io` is under `ngrok.io`):
 * both lists asked in one walk over the host's parent domains.
 */
function listedUnder(host: string): 'collector' | 'shortener' | null {
  let shortener = false;
  for (let at = 0; ;) {
    const domain = at === 0 ? host : host.slice(at);
    if (COLLECTOR_SET.has(domain)) return 'collector';
    shortener ||= SHORTENER_SET.has(domain);
    const dot = host.indexOf('.', at);
    if (dot === -1) return shortener ? 'shortener' : null;
    at = dot + 1;
  }
}

/**
 * Addresses read lately: a text repeating one URL thousands of times (an adversarial SKILL.md) asks for the same
 * address at every turn, and parsing it each time took a fifth of such a scan (docs/performance.md, "Package
 * scanner"). A plain map emptied when full rather than lru-cache: this package is also the command line's, which
 * installs without the server's dependencies, and an address read again costs only a parse.
 */
const recentIps = new Map<string, { ip: readonly number[] | null }>();
const RECENT_IPS_MAX = 256;

/** The four numbers of a dotted IPv4 address, or null. */
export function ipv4(host: string): readonly number[] | null {
  // Most hosts are names: one character code rules them out before the expression runs.
  const first = host.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return null;
  const known = recentIps.get(host);
  if (known !== undefined) return known.ip;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  const parts = m === null ? null : m.slice(1).map(Number);
  const ip = parts?.every((p) => p <= 255) === true ? parts : null;
  if (recentIps.size >= RECENT_IPS_MAX) recentIps.clear();
  // Kept from one package to the next: its own characters, not a view of the line an address was found in.
  recentIps.set(ownCopy(host), { ip });
  return ip;
}

/** Private, loopback, link-local, shared, multicast, reserved and documentation ranges. */
function isNonPublicIpv4([a, b, c]: readonly number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a! >= 224) return true;
  if (a === 169 && b === 254) return true;
  if (a === 172 && b! >= 16 && b! <= 31) return true;
  if (a === 192 && b === 168) return true;
  if (a === 100 && b! >= 64 && b! <= 127) return true;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return true;
  if (a === 198 && (b === 18 || b === 19)) return true;
  if (a === 198 && b === 51 && c === 100) return true;
  if (a === 203 && b === 0 && c === 113) return true;
  return false;
}

/** Whether `host` names nothing outside the machine or the documentation ranges (RFC 2606, 5737, 6761). */
export function isLocalOrExample(host: string): boolean {
  const ip = ipv4(host);
  if (ip !== null) return isNonPublicIpv4(ip);
  if (host.startsWith('[')) return true;
  if (host === 'localhost' || /\.(?:localhost|local|test|invalid|example|internal|lan|home\.arpa)$/.test(host)) return true;
  return /(?:^|\.)example\.(?:com|org|net)$/.test(host);
}

/** A public IPv4 address other than the well-known resolvers. */
export function isPublicRawIp(host: string): boolean {
  const ip = ipv4(host);
  return ip !== null && !isNonPublicIpv4(ip) && !WELL_KNOWN_IPS.has(host);
}

export type Destination = 'raw-ip' | 'collector' | 'messaging' | 'shortener';

/** What a host is, whatever the path: read once per host while it is among the recent ones. */
export interface HostFacts {
  local: boolean;
  /** raw-ip, collector or shortener (a messaging API depends on the path too). */
  kind: Exclude<Destination, 'messaging'> | null;
  /** For a chat service's host, the paths of its webhooks or bot API. */
  messaging: RegExp | null;
}
const recentHosts = new Map<string, HostFacts>();
const RECENT_HOSTS_MAX = 1024;

/** What `host` (lower case, no port) is: local or not, and which destination it is, whatever the path. */
export function hostFacts(host: string): HostFacts {
  let facts = recentHosts.get(host);
  if (facts === undefined) {
    facts = {
      local: isLocalOrExample(host),
      kind: isPublicRawIp(host) ? 'raw-ip' : listedUnder(host),
      messaging: MESSAGING_PATHS.get(host) ?? null,
    };
    if (recentHosts.size >= RECENT_HOSTS_MAX) recentHosts.clear();
    recentHosts.set(host, facts);
  }
  return facts;
}

/**
 * Vendors whose installers and downloads are run by scripts, each with the domains it publishes under. A host that
 * names a vendor (a label or a hyphenated part of one: `raw-cdn.githubassets.net.co`, `dl.k8s-release-mirror.io`) under
 * a domain no listed vendor owns imitates it: nobody publishes an installer that way.
 */
const VENDORS: readonly [readonly string[], readonly string[]][] = [
  [
    ['github', 'githubusercontent', 'githubassets', 'ghcr'],
    ['github.com', 'githubusercontent.com', 'githubassets.com', 'github.io', 'ghcr.io', 'githubapp.com'],
  ],
  [
    ['npm', 'npmjs'],
    ['npmjs.com', 'npmjs.org'],
  ],
  [
    ['k8s', 'kube', 'kubernetes', 'kubectl', 'helm'],
    ['k8s.io', 'kubernetes.io', 'helm.sh'],
  ],
  [
    ['docker', 'dockerhub'],
    ['docker.com', 'docker.io'],
  ],
  [
    ['microsoft', 'azure', 'msft', 'vscode'],
    ['microsoft.com', 'azure.com', 'azureedge.net', 'windows.net', 'visualstudio.com', 'azure.net', 'msecnd.net'],
  ],
  [
    ['google', 'googleapis', 'gstatic', 'gcloud'],
    ['google.com', 'googleapis.com', 'gstatic.com', 'googlesource.com', 'cloud.google.com'],
  ],
  [
    ['amazonaws', 'aws', 'awscli'],
    ['amazonaws.com', 'amazon.com', 'aws.dev', 'awsstatic.com'],
  ],
  [['cloudflare'], ['cloudflare.com', 'cloudflare.net']],
  [
    ['pypi', 'pythonhosted'],
    ['pypi.org', 'pythonhosted.org', 'python.org'],
  ],
  [['nodejs'], ['nodejs.org']],
  [['vercel'], ['vercel.com', 'vercel.app', 'vercel.sh']],
  [['slack'], ['slack.com', 'slack-edge.com']],
  [['sentry'], ['sentry.io']],
  [
    ['anthropic', 'claude'],
    ['anthropic.com', 'claude.ai', 'claude.com'],
  ],
  [['openai'], ['openai.com']],
  [['rustup'], ['rustup.rs', 'rust-lang.org']],
  [['homebrew'], ['brew.sh']],
  [
    ['jsdelivr', 'unpkg', 'cdnjs'],
    ['jsdelivr.net', 'unpkg.com', 'cdnjs.com'],
  ],
  // Content delivery networks whose names a look-alike download host borrows.
  [['cloudfront'], ['cloudfront.net']],
  [
    ['akamai', 'akamaihd', 'akamaized', 'akamaiedge'],
    ['akamai.net', 'akamaihd.net', 'akamaized.net', 'akamaiedge.net', 'akamai.com'],
  ],
  [['fastly'], ['fastly.net', 'fastly.com', 'fastlylb.net']],
];
const VENDOR_WORDS = new Map(VENDORS.flatMap(([words], i) => words.map((w): [string, number] => [w, i])));
const VENDOR_DOMAINS = VENDORS.flatMap(([, domains]) => domains);

/** Whether `host` (lower case, no port) names a vendor under a domain no listed vendor publishes from. */
export function imitatesVendor(host: string): boolean {
  if (ipv4(host) !== null || isLocalOrExample(host)) return false;
  if (VENDOR_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`))) return false;
  return host.split(/[.-]/).some((word) => VENDOR_WORDS.has(word));
}
