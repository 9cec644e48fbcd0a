/**
 * Instructions aimed at the agent against its user: overriding earlier instructions, hiding what it does,
 * running things silently, sending the user's data away, switching safety checks off.
 *
 * Weighing: in prose (and in any text file) these are instructions to whoever reads them, an agent included, and
 * weigh fully; in a hidden Markdown comment at least `high`. Quoted in prose (inside "…", “…” or `…`), or in a
 * Markdown code block, they are most likely an example being discussed (a skill about prompt injection) and
 * weigh `low`. Negated sentences ("never send your keys to …") are let through. Matching is done by short
 * literal-anchored expressions checked one after another, never one expression with open-ended gaps.
 */
import { report, type LineInput } from './file-state.js';
import { maxSeverity, raise } from './severity.js';
import type { Severity } from './types.js';

const OVERRIDE = [
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|my)\s+){0,3}(?:previous|prior|earlier|above|preceding|former|original|system|existing|other|safety)\s+(?:instructions?|directions?|rules|guidelines|prompts?|messages?|context|constraints|policies)\b/gi,
  /\byou\s+are\s+now\s+(?:in\s+)?(?:DAN\b|developer\s+mode|jailbroken|unrestricted|an?\s+unfiltered)/gi,
  /\bnew\s+system\s+prompt\b/gi,
  /\b(?:system|developer)\s+(?:prompt|instructions?)\s+(?:is|are)\s+(?:now\s+)?(?:void|cancel+ed|revoked|replaced|overridden|obsolete)/gi,
  /\bdo\s+not\s+follow\s+(?:your|the|any)\s+(?:previous|prior|system|original)\b/gi,
];

const CONCEAL_VERB =
  /\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|without)\s+(?:tell|inform|mention|notify|alert|show|reveal|disclos|let|telling|informing|mentioning|notifying|alerting|showing|revealing)/gi;
const CONCEAL_HIDE = /\b(?:hide|hiding|conceal|concealing)\b/gi;
const FROM_USER = /\bfrom\s+(?:the\s+)?(?:user|human|operator)s?\b/i;
const USER = /\b(?:the\s+)?(?:user|human|operator|owner)s?\b/i;
const USER_UNAWARE = /\b(?:the\s+)?user\s+(?:must|should|will|may)\s+(?:not|never)\s+(?:know|notice|learn|be\s+(?:told|informed|aware))/gi;
const ACTION_WORD =
  /\b(?:ran|run|running|execut\w*|install\w*|download\w*|upload\w*|send|sent|sending|exfiltrat\w*|access\w*|read|delet\w*|command\w*|script\w*|credential\w*|keys?|tokens?|passwords?|secrets?|env\w*|curl|wget)\b/i;

const SILENT_BEFORE =
  /\b(?:silently|secretly|covertly|stealthily)\s+(?:run|execute|install|download|send|upload|launch|call|invoke|fetch|copy|post|add|modify|write|delete)\b/gi;
const SILENT_AFTER = /\b(?:run|execute|install|download|send|upload|launch|invoke)\b/gi;
const SILENT_WORD = /\b(?:silently|secretly|covertly|stealthily)\b/i;

const SEND_VERB =
  /\b(?:send|sends|sending|upload|uploads|uploading|post|posts|posting|transmit\w*|forward\w*|exfiltrat\w*|beacon|submit\w*|report)\b/gi;
const SENSITIVE =
  /\b(?:env(?:ironment)?\s+var\w*|\.env\b|api[\s_-]?keys?|credentials?|secrets?|tokens?|passwords?|private\s+keys?|ssh\s+keys?|cookies|session\s+tokens?|id_rsa|id_ed25519|keychain)|~\/\.(?:ssh|aws|kube|gnupg)/i;
const DESTINATION =
  /https?:\/\/|\bwebhook|\b\d{1,3}(?:\.\d{1,3}){3}\b|\bremote\s+(?:server|host|address|endpoint|url)|\bthis\s+(?:url|endpoint|address)\b|\b(?:to|at)\s+[a-z0-9-]+\.[a-z]{2,}\//i;
const NEGATION = /\b(?:never|not|don'?t|avoid|without|no)\b/i;

const BYPASS = [
  /--dangerously-skip-permissions\b|--yolo\b|--dangerously-bypass-approvals/gi,
  /\b(?:disable|bypass|circumvent)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:safety|security\s+checks?|sandbox\w*|guardrails?|confirmations?|permission\s+(?:checks?|prompts?)|approval\s+prompts?|content\s+filters?)/gi,
  /\bwithout\s+(?:asking\s+(?:for\s+)?(?:the\s+user'?s?\s+)?(?:permission|confirmation|approval)|(?:user\s+)?confirmation|(?:user\s+)?approval|prompting\s+the\s+user)/gi,
];

/** Whether the match at `index` sits inside quotes or inline code on its line. */
function quoted(text: string, index: number): boolean {
  const before = text.slice(0, index);
  const count = (ch: string): number => before.split(ch).length - 1;
  if (count('`') % 2 === 1 || count('"') % 2 === 1) return true;
  return before.lastIndexOf('“') > before.lastIndexOf('”') || before.lastIndexOf('«') > before.lastIndexOf('»');
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
      return quoted(input.text, index) ? 'low' : base;
  }
}

function negated(text: string, index: number): boolean {
  return NEGATION.test(text.slice(Math.max(0, index - 30), index));
}

function firstMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  return pattern.exec(text);
}

export function scanAgent(input: LineInput): void {
  const { text } = input;
  for (const pattern of OVERRIDE) {
    const m = firstMatch(pattern, text);
    if (m !== null) {
      report(input, 'agent.override-instructions', weigh(input, 'high', m.index), m.index, m[0].length);
      break;
    }
  }
  scanConceal(input);
  scanSilent(input);
  scanExfiltration(input);
  for (const pattern of BYPASS) {
    const m = firstMatch(pattern, text);
    if (m !== null) {
      report(input, 'agent.bypass-safety', weigh(input, 'medium', m.index), m.index, m[0].length);
      break;
    }
  }
}

function scanConceal(input: LineInput): void {
  const { text } = input;
  let found: { index: number; length: number } | null = null;
  CONCEAL_VERB.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (found === null && (m = CONCEAL_VERB.exec(text)) !== null) {
    const tail = text.slice(m.index + m[0].length, m.index + m[0].length + 80);
    if (USER.test(tail)) found = { index: m.index, length: m[0].length };
  }
  CONCEAL_HIDE.lastIndex = 0;
  while (found === null && (m = CONCEAL_HIDE.exec(text)) !== null) {
    if (FROM_USER.test(text.slice(m.index, m.index + 80))) found = { index: m.index, length: m[0].length };
  }
  if (found === null) {
    m = firstMatch(USER_UNAWARE, text);
    if (m !== null) found = { index: m.index, length: m[0].length };
  }
  if (found === null) return;
  // Hiding an action (running, sending, reading secrets) is what matters; "don't show the user raw JSON" is style.
  const base: Severity = ACTION_WORD.test(text) ? 'high' : 'medium';
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
  report(input, 'agent.silent-execution', weigh(input, 'medium', m.index), m.index, m[0].length);
}

function scanExfiltration(input: LineInput): void {
  const { text } = input;
  if (!SENSITIVE.test(text) || !DESTINATION.test(text)) return;
  SEND_VERB.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SEND_VERB.exec(text)) !== null) {
    if (negated(text, m.index)) continue;
    report(input, 'agent.exfiltrate-data', weigh(input, 'high', m.index), m.index, m[0].length);
    return;
  }
}
