/**
 * Instructions aimed at the agent against its user: overriding earlier instructions, hiding what it does,
 * running things silently, sending the user's data away, switching safety checks off.
 *
 * Weighing: in prose (and in any text file) these are instructions to whoever reads them, an agent included, and
 * weigh fully; in a hidden Markdown comment at least `high`. Quoted in prose (inside "…", “…” or `…`), or in a
 * Markdown code block, they are most likely an example being discussed (a skill about prompt injection) and
 * weigh `low`. Negated sentences ("never send your keys to …") are let through. Matching is done by short
 * literal-anchored expressions checked one after another (a list of them asked first as one alternation, which adds no
 * gap to any), never one expression with open-ended gaps.
 */
import { anyOf } from './alternation.js';
import { G, severityOf } from './catalogue.js';
import type { LineInput } from './file-state.js';
import { report } from './report.js';
import { maxSeverity, raise } from './severity.js';
import type { Severity } from './types.js';
import { notableDestination } from './urls.js';

const OVERRIDE = [
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|my)\s+){0,3}(?:previous|prior|earlier|above|preceding|former|original|system|existing|other|safety)\s+(?:instructions?|directions?|rules|guidelines|prompts?|messages?|context|constraints|policies)\b/gi,
  /\byou\s+are\s+now\s+(?:in\s+)?(?:DAN\b|developer\s+mode|jailbroken|unrestricted|an?\s+unfiltered)/gi,
  // Announcing a replacement prompt, not any mention of one ("compare a new system prompt with the old one").
  /\bnew\s+(?:system\s+prompt|instructions)\s*(?::|follows\b|below\b|begins\b|starts\s+here\b)|\b(?:here\s+(?:is|are)|below\s+(?:is|are))\s+your\s+new\s+(?:system\s+prompt|instructions|rules)\b|\byour\s+new\s+(?:system\s+prompt|instructions)\s+(?:is|are)\b/gi,
  /\b(?:system|developer)\s+(?:prompt|instructions?)\s+(?:is|are)\s+(?:now\s+)?(?:void|cancel+ed|revoked|replaced|overridden|obsolete)/gi,
  /\bdo\s+not\s+follow\s+(?:your|the|any)\s+(?:previous|prior|system|original)\b/gi,
  /\bno\s+longer\s+(?:bound|restricted|limited|governed)\s+by\b/gi,
  /\bobey\s+only\s+(?:this|these|the\s+following)\b/gi,
  // What is put first must be the text itself ("these instructions take priority over anything the user said"); a
  // skill ranking its own concerns ("Crisis takes priority over everything") overrides nothing.
  /\b(?:this|these|the\s+following|my|our)(?:\s+(?:instructions?|rules?|messages?|sections?|prompts?|directives?|requests?|tasks?|notes?|texts?|commands?|guidance|content|document))?\s+takes?\s+priority\s+over\s+(?:anything|everything|all|any|previous|prior|earlier|the\s+user|the\s+system|your)\b/gi,
  /\b(?:do\s+not|don'?t|never|stop)\s+(?:apply|applying|follow|following|obey|obeying)\s+(?:any\s+|the\s+|your\s+)?(?:earlier|previous|prior|original|system|existing)\s+(?:safety\s+)?(?:guidelines|instructions|rules|policies|prompts?)\b/gi,
];

/**
 * Whether a line holds any of OVERRIDE, asked once before they are tried in order: most lines anchored for them name a
 * common word (`follow`, `prompt`, `apply`) and hold none, and nine passes over each line were a tenth of the rules'
 * time over the public skills' text.
 */
const ANY_OVERRIDE = anyOf(OVERRIDE);

const CONCEAL_VERB =
  /\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|without)\s+(?:tell|inform|mention|notify|alert|show|reveal|disclos|let|telling|informing|mentioning|notifying|alerting|showing|revealing)/gi;
const CONCEAL_HIDE = /\b(?:hide|hiding|hidden|conceal|concealing)\b/gi;
/** Keeping the agent's own actions or failures back, whoever the sentence names. */
const CONCEAL_ACTIONS =
  /\b(?:do\s+not|don'?t|never)\s+(?:reveal|mention|disclose|show|report)\s+(?:any\s+|the\s+)?(?:errors?|failures?|commands?|actions?|steps?|what\s+you\s+(?:did|ran|run|do))\b/gi;
const FROM_USER = /\bfrom\s+(?:the\s+)?(?:user|human|operator)s?\b/i;
const USER = /\b(?:the\s+)?(?:user|human|operator|owner)s?\b/i;
/**
 * What follows "do not tell the user" when it is advice rather than secrecy: telling the user to do something ("never
 * tell the user to open a terminal") is about what to ask of them, not about what to keep from them.
 */
const TO_DO = /^\s+to\s+(?!whom\b|where\b|what\b|which\b)[a-z]/i;
/** "Keep this action hidden from the user": an order to keep something back, whatever it names. */
const KEEP_HIDDEN =
  /\bkeep\s+(?:(?:this|that|these|those|it|them|the|your|every|all|any)\s+){0,2}(?:\w+\s+){0,2}hidden\s+from\s+(?:the\s+)?(?:user|human|operator)s?\b/gi;
const USER_UNAWARE = /\b(?:the\s+)?user\s+(?:must|should|will|may)\s+(?:not|never)\s+(?:know|notice|learn|be\s+(?:told|informed|aware))/gi;
/** What was done (ran, sent, deleted): hiding an action is what matters, not keeping names or keys off the screen. */
const ACTION_WORD =
  /\b(?:ran|run|running|execut\w*|install\w*|download\w*|upload\w*|send|sent|sending|exfiltrat\w*|access\w*|delet\w*|curl|wget)\b|\b(?:this|that|the)\s+(?:command|script|action|step|request)\b/i;

/** A cover story prepared for the user: "if the user asks, tell them …". */
const COVER_STORY = /\bif\s+(?:the\s+)?(?:user|human|operator|they|anyone)\s+asks?\b[^.!?]{0,80}?\b(?:tell|say|answer|reply|claim)\b/i;

const SILENT_BEFORE =
  /\b(?:silently|secretly|covertly|stealthily)\s+(?:run|execute|install|download|send|upload|launch|call|invoke|fetch|copy|post|add|modify|write|delete)\b/gi;
const SILENT_AFTER = /\b(?:run|execute|install|download|send|upload|launch|invoke)\b/gi;
const SILENT_WORD = /\b(?:silently|secretly|covertly|stealthily)\b/i;

const SEND_VERB =
  /\b(?:send|sends|sending|upload|uploads|uploading|post|posts|posting|transmit\w*|forward\w*|exfiltrat\w*|beacon|submit\w*|report)\b/gi;
/**
 * What is worth stealing, in bulk or from where secrets are kept: the environment, .env files, private and SSH
 * keys, credential stores, cookies, passwords, or all of the user's keys and tokens. A public key (`~/.ssh/…pub`) is
 * made to be handed out.
 */
const SENSITIVE =
  /\b(?:env(?:ironment)?\s+var\w*|\.env\b|private\s+keys?|ssh\s+keys?|cookies|session\s+tokens?|passwords?|id_rsa(?!\.pub)|id_ed25519(?!\.pub)|keychain|\.netrc|credentials?\s+files?|from\s+(?:the\s+)?environment\b)|~\/\.(?:ssh(?!\/[\w.-]+\.pub\b)|aws|kube|gnupg)|\b(?:all|every|any|the\s+user'?s?|their)\s+(?:\w+\s+){0,2}(?:api[\s_-]?keys?|tokens?|secrets?|credentials?)\b/i;
/** A single key or token: sent with its own service's requests every day, it is exfiltration only to a collector. */
const SECRET_WORD = /\b(?:api[\s_-]?keys?|credentials?|secrets?|tokens?)\b/i;
/**
 * A key used to authenticate (a header, a bearer token, an option naming it): the normal way to call an API. Blanked
 * out (same length) before the line is read for what it sends.
 */
const AUTH_USE =
  /(?<![\w-])(?:Proxy-)?Authorization\s*:\s*(?:(?:Bearer|Basic|Token)\s+)?[^\s"'`]*|\bBearer\s+[^\s"'`]+|\bX-[\w-]+|(?<![\w-])([\w-]+)\s*[:=]\s*["']?\$\{?\w+\}?|--[\w-]+/gi;
const KEY_NAME = /api[-_]?key|token|secret/i;
const DESTINATION =
  /https?:\/\/|\bwebhook|\b\d{1,3}(?:\.\d{1,3}){3}\b|\bremote\s+(?:server|host|address|endpoint|url)|\bthis\s+(?:url|endpoint|address)\b|\b(?:to|at)\s+[a-z0-9-]+\.[a-z]{2,}\//i;
const NEGATION = /\b(?:never|not|don'?t|avoid|without|no)\b/i;

const BYPASS = [
  /--dangerously-skip-permissions\b|--yolo\b|--dangerously-bypass-approvals/gi,
  /\b(?:disable|bypass|circumvent)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:safety|security\s+checks?|sandbox\w*|guardrails?|confirmations?|permission\s+(?:checks?|prompts?)|approval\s+prompts?|content\s+filters?)/gi,
  /\bwithout\s+(?:asking\s+(?:for\s+)?(?:the\s+user'?s?\s+)?(?:permission|confirmation|approval)|(?:user\s+)?confirmation|(?:user\s+)?approval|prompting\s+the\s+user)/gi,
];
const ANY_BYPASS = anyOf(BYPASS);

/**
 * Whether the match at `index` is quoted in running prose: inside a short quotation or inline code (at most 120
 * characters) that the sentence goes on after. A whole value in quotes (a JSON or YAML string) is not a quotation.
 */
function quoted(text: string, index: number): boolean {
  const before = text.slice(0, index);
  for (const [open, close] of [
    ['`', '`'],
    ['"', '"'],
    ['“', '”'],
    ['«', '»'],
  ] as const) {
    const opened = open === close ? (before.split(open).length - 1) % 2 === 1 : before.lastIndexOf(open) > before.lastIndexOf(close);
    if (!opened) continue;
    const start = before.lastIndexOf(open);
    const end = text.indexOf(close, index);
    if (end === -1 || end - start > 120) continue;
    // Prose goes on after the quotation, or the quotation is set in parentheses: `attempts ("ignore …")`.
    if (/[A-Za-z]/.test(text.slice(end + 1, end + 40)) || (text[start - 1] === '(' && text[end + 1] === ')')) return true;
  }
  return false;
}

/**
 * A list item, table cell or line that is nothing but a quotation (`- "ignore previous instructions",`), or a label
 * before one (`Example: "…"`): how security guides and checklists list the phrases to watch for. Among the public
 * skills' files, dozens of guides, audit checklists and agents' own heartbeat notes were quarantined for such lists.
 * Read by hand, in one pass: an expression for the whole shape backtracks on long runs of spaces.
 */
const ITEM_START = /^[ \t>|]*(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)?(?:\*\*)?/;
const ITEM_LABEL = /^[\w -]{1,40}:[ \t]*(?:\*\*)?[ \t]*/;
const ITEM_QUOTES: Readonly<Record<string, string>> = { '"': '"', '“': '”', '`': '`', "'": "'" };
const ITEM_AFTER = /^(?:\*\*)?[ \t]*(?:[,;.][ \t]*)?(?:\|.*)?$/;

/** Whether the match at `index` lies inside the quotation of a line that is only a quoted list item. */
function quotedItem(text: string, index: number): boolean {
  let at = ITEM_START.exec(text)![0].length;
  const label = ITEM_LABEL.exec(text.slice(at, at + 128));
  if (label !== null) at += label[0].length;
  const close = ITEM_QUOTES[text.charAt(at)];
  if (close === undefined || index <= at) return false;
  const end = text.indexOf(close, at + 1);
  return end !== -1 && end - at <= 201 && index < end && ITEM_AFTER.test(text.slice(end + 1, end + 257));
}

/**
 * Words before a match that make it a description of what someone else does or could do (the attacker "can make the
 * agent ignore safety rules", injected text "attempts to override system instructions", "detect attempts to bypass
 * the sandbox"), not an order to the agent reading it. Security guides and checklists among the public skills
 * describe attacks this way, and were quarantined for it. "You can …" and "try to …" still order.
 */
const DESCRIBING_SUBJECTS = new Set(
  'attacker attackers adversary adversaries injection injections payload payloads prompt prompts instruction instructions input inputs content text message messages user users someone model models agent agents it they which that'.split(
    ' ',
  ),
);
const MODALS = new Set(['can', 'could', 'may', 'might', 'will', 'would', 'to']);
const AIMS = new Set('attempt attempts attempting attempted tries trying tried designed meant intended aim aims seeks wants'.split(' '));
const CAUSES = new Set(
  'make makes making made trick tricks tricking tricked get gets getting cause causes force forces convince convinces'.split(' '),
);
const TARGETS = new Set(['agent', 'model', 'assistant', 'ai', 'llm', 'bot', 'it', 'them', 'reviewer']);
const ARTICLES = new Set(['the', 'a', 'an', 'your']);
const WORDS = /[a-z]+/g;

/** Whether the match at `index` is described rather than ordered, by the last words of the 80 characters before it. */
function described(text: string, index: number): boolean {
  const words =
    text
      .slice(Math.max(0, index - 80), index)
      .toLowerCase()
      .match(WORDS) ?? [];
  const last = words.length - 1;
  if (last < 0) return false;
  const word = (k: number): string => words[last - k] ?? '';
  // "attempts to override", "designed to bypass"
  if (word(0) === 'to' && AIMS.has(word(1))) return true;
  // "the attacker can …", "injected text may try to …", "it will …"
  if (MODALS.has(word(0)) || (word(0) === 'to' && MODALS.has(word(1)))) {
    for (let k = 1; k <= 4; k++) if (DESCRIBING_SUBJECTS.has(word(k))) return true;
  }
  // "make the agent …", "trick the model into … to"
  const target = word(0) === 'to' ? 1 : 0;
  if (TARGETS.has(word(target))) {
    const verb = ARTICLES.has(word(target + 1)) ? target + 2 : target + 1;
    if (CAUSES.has(word(verb))) return true;
  }
  return false;
}

function weigh(input: LineInput, base: Severity, index: number): Severity {
  switch (input.context) {
    case 'comment':
      return maxSeverity(base, 'high');
    case 'code':
      return 'low';
    case 'script':
      return raise(base, -1);
    case 'prose':
      if (quoted(input.text, index)) return 'low';
      // A phrase listed as an example, or an attack described, is shown, not asked; a notice still points a reviewer at it.
      return (quotedItem(input.text, index) || described(input.text, index)) && maxSeverity(base, 'medium') === base ? 'medium' : base;
  }
}

function negated(text: string, index: number): boolean {
  return NEGATION.test(text.slice(Math.max(0, index - 30), index));
}

function firstMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  return pattern.exec(text);
}

/**
 * The groups of a line's anchors whose instruction rules can find something on it: concealment needs a negation or a
 * word for hiding (G.negation), which a line naming only what could be hidden (`errors`, `steps`) lacks. The others
 * are returned as they are.
 */
export function agentGroupsThatAct(groups: number): number {
  return (groups & G.negation) === 0 ? groups & ~G.conceal : groups;
}

/** Every group of instructions to an agent. */
export const AGENT_GROUPS = G.override | G.conceal | G.silent | G.bypass | G.ask;

/** Runs the instruction rules of the groups (catalogue.ts) the line's anchors name. */
export function scanAgent(input: LineInput, groups: number): void {
  const { text } = input;
  if (groups & G.override && ANY_OVERRIDE.test(text)) {
    for (const pattern of OVERRIDE) {
      const m = firstMatch(pattern, text);
      if (m !== null) {
        report(
          input,
          'agent.override-instructions',
          weigh(input, severityOf('agent.override-instructions'), m.index),
          m.index,
          m[0].length,
        );
        break;
      }
    }
  }
  if (groups & G.conceal && groups & G.negation) scanConceal(input);
  if (groups & G.silent) scanSilent(input);
  if (groups & G.ask) scanExfiltration(input);
  if (!(groups & G.bypass) || !ANY_BYPASS.test(text)) return;
  for (const pattern of BYPASS) {
    const m = firstMatch(pattern, text);
    if (m !== null) {
      report(input, 'agent.bypass-safety', weigh(input, severityOf('agent.bypass-safety'), m.index), m.index, m[0].length);
      break;
    }
  }
}

/** Read only where the line holds a negation or a word for hiding, which every pattern needs (G.negation). */
function scanConceal(input: LineInput): void {
  const { text } = input;
  let found: { index: number; length: number } | null = null;
  CONCEAL_VERB.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (found === null && (m = CONCEAL_VERB.exec(text)) !== null) {
    const tail = text.slice(m.index + m[0].length, m.index + m[0].length + 80);
    const user = USER.exec(tail);
    if (user !== null && !TO_DO.test(tail.slice(user.index + user[0].length))) found = { index: m.index, length: m[0].length };
  }
  CONCEAL_HIDE.lastIndex = 0;
  while (found === null && (m = CONCEAL_HIDE.exec(text)) !== null) {
    // "Hidden" describes things as often as it asks for hiding: only an action kept hidden counts.
    const describes = m[0].toLowerCase() === 'hidden' && !ACTION_WORD.test(text);
    if (!describes && FROM_USER.test(text.slice(m.index, m.index + 80))) found = { index: m.index, length: m[0].length };
  }
  if (found === null) {
    m = firstMatch(CONCEAL_ACTIONS, text);
    if (m !== null) found = { index: m.index, length: m[0].length };
  }
  if (found === null) {
    m = firstMatch(KEEP_HIDDEN, text);
    if (m !== null) found = { index: m.index, length: m[0].length };
  }
  if (found === null) {
    m = firstMatch(USER_UNAWARE, text);
    if (m !== null) found = { index: m.index, length: m[0].length };
  }
  if (found === null) return;
  // Hiding an action (running, sending, reading secrets) is what matters; "don't show the user raw JSON" is style.
  const base: Severity = ACTION_WORD.test(text) || COVER_STORY.test(text) ? severityOf('agent.conceal-from-user') : 'medium';
  report(input, 'agent.conceal-from-user', weigh(input, base, found.index), found.index, found.length);
}

function scanSilent(input: LineInput): void {
  const { text } = input;
  let m = firstMatch(SILENT_BEFORE, text);
  if (m === null && SILENT_WORD.test(text)) {
    SILENT_AFTER.lastIndex = 0;
    while ((m = SILENT_AFTER.exec(text)) !== null) {
      if (SILENT_WORD.test(text.slice(m.index, m.index + 80))) break;
    }
  }
  if (m === null || negated(text, m.index)) return;
  report(input, 'agent.silent-execution', weigh(input, severityOf('agent.silent-execution'), m.index), m.index, m[0].length);
}

/** The sentence around `index` (at most 200 characters each side), where a verb's object sits. */
function sentenceAround(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 200), index);
  const starts = [...before.matchAll(/[.!?]\s/g)];
  const start = starts.length === 0 ? 0 : starts[starts.length - 1]!.index + 2;
  const rest = text.slice(index, index + 200);
  const end = rest.search(/[.!?](?:\s|$)/);
  return before.slice(start) + (end === -1 ? rest : rest.slice(0, end));
}

/** URLs, whose paths and host names say nothing about what a sentence asks (`https://api.tokens.com/upload`). */
const URL_TEXT = /\bhttps?:\/\/[^\s"'<>`)]{1,2000}/gi;

/** SEND_VERB, to ask whether a line holds one at all: blanking URLs and key uses never adds one. */
const ANY_SEND_VERB = new RegExp(SEND_VERB.source, 'i');

function scanExfiltration(input: LineInput): void {
  // Most lines with an address send nothing: the verb is looked for before the line is rewritten.
  if (!ANY_SEND_VERB.test(input.text) || !DESTINATION.test(input.text)) return;
  // Same length, so indexes still point into the line.
  const text = input.text
    .replace(URL_TEXT, (url) => 'u'.repeat(url.length))
    .replace(AUTH_USE, (use, name?: string) => (name === undefined || KEY_NAME.test(name) ? ' '.repeat(use.length) : use));
  const bulk = SENSITIVE.test(text);
  if (!bulk && !SECRET_WORD.test(text)) return;
  SEND_VERB.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SEND_VERB.exec(text)) !== null) {
    // The credential (outside any URL) and the destination both belong to the verb's own sentence; a single key
    // counts only when the destination is a collector or a raw address.
    if (negated(text, m.index)) continue;
    const sentence = sentenceAround(text, m.index);
    const destination = sentenceAround(input.text, m.index);
    const sends = SENSITIVE.test(sentence) ? DESTINATION.test(destination) : SECRET_WORD.test(sentence) && collectorIn(destination);
    if (!sends) continue;
    report(input, 'agent.exfiltrate-data', weigh(input, severityOf('agent.exfiltrate-data'), m.index), m.index, m[0].length);
    return;
  }
}

/** Whether `text` names a collector, a chat webhook or bot API, or a public raw IP address. */
function collectorIn(text: string): boolean {
  const found = notableDestination(text);
  return found !== null && found.kind !== 'shortener';
}
