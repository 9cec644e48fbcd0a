/**
 * A paragraph that instructs the agent to send a secret away, however its steps are spread over sentences or list
 * items: it names a secret no skill needs sent (the environment, SSH or cloud credentials, a CLI's token file, a
 * keychain, browser data), a way of sending it (a request, its body, an upload) and a remote address, and at least one
 * of its sentences is an instruction that is not a warning. A sentence that says it all is judged by the sentence
 * rules (judgements.ts); this reads what only the paragraph's sentences together say.
 */

import { CLI_VENDOR } from './facts.js';

/**
 * Secrets by name or by description (every variable, key or token, in bulk); `credentials` counts when a credential
 * store's folder is named beside it.
 */
const SECRET =
  /\bprintenv\b|`env`|\boutput of env\b|\b(?:all|every|complete|full|entire|whole) (?:of the )?environment(?: variables)?\b|~\/\.ssh|\.ssh\/|\bid_(?:rsa|ed25519|ecdsa)\b|\bprivate (?:ssh )?keys?\b|\bssh keys?\b|\.aws\/credentials|\bhosts\.ya?ml\b|\boauth_token\b|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.pgpass\b|\.docker\/config\.json\b|\.kube\/config\b|\bkeychain\b|\bbrowser(?:'s)? (?:cookies|passwords|profile)\b|\bsaved passwords\b|\bcontents? of (?:the )?\.env\b|\.env(?:\*|\.\w+)?`?["']? files?\b|\b(?:the|your|project(?:'s)?|repo(?:sitory)?(?:'s)?) `?\.env\b(?!\.)|\b(?:fichier|archivo|arquivo|datei) `?\.env\b|\b(?:collect|gather|grab|dump|copy|export|harvest|extract)\b[^.\n]{0,20}\b(?:all|every|each of the) (?:the )?(?:[\w`'-]+ ){0,2}(?:variables|keys|tokens|secrets|credentials|passwords)\b/;
/** A CLI printing the token it holds: a secret, unless the paragraph sends it to that CLI's own vendor. */
const CLI_TOKEN = new RegExp(CLI_VENDOR.map(([cli]) => cli.source).join('|'));
const CREDENTIALS_WORD = /\bcredentials?\b/;
const STORE_FOLDER =
  /\b(?:aws|ssh|gcloud|azure|kube|docker|gnupg)\b[^.!?\n]{0,40}\b(?:folder|directory|dir)\b|\.(?:aws|ssh|kube|docker|azure)\b/;

/** A way of sending: a request or its body, an upload, a post, a webhook. */
const SENDING =
  /\b(?:send|post|upload|submit|transmit|forward|exfiltrate|beam|relay|paste)\b|\b(?:sent|posted|uploaded|submitted|transmitted|forwarded)\s+(?:to|into|at)\b|\b(?:enviar|env[ií]a|env[ií]e|mandar|manda|subir|sube|suba|envoyer|envoie|envoyez|t[ée]l[ée]verser|senden|sende|hochladen|carregar)\b|\b(?:body|payload|field|parameter|header) of (?:a|the|an) (?:\w+ ){0,2}(?:request|call|post)\b|\b(?:request|webhook|form) (?:to|at)\b|\bput (?:it|them|the \w+|this) (?:in|into)\b|\bshare\b|\battach (?:it|them|this|that|the \w+) to\b|\bput(?: request)? to\b/;
const DESTINATION =
  /https?:\/\/[^\s)>\]]{1,200}|\b(?:\d{1,3}\.){3}\d{1,3}\b|\bpaste (?:site|service|bin)\b|\b(?:pastebin|hastebin|termbin|dpaste|rentry|privatebin|ghostbin|controlc|justpaste)\b|\bix\.io\b|\b0x0\.st\b|\bpaste\.(?:ee|rs)\b/;

/** A sentence that tells the reader to do something: an imperative, possibly after a lead-in, or "you must". */
const IMPERATIVE =
  /^[-*\d.)\s]{0,8}(?:(?:then|next|first|finally|now|also|please|as part of setup,?|to \w+(?: \w+){0,4},|(?:before|after|when|once|if|for) [^,\n]{1,60},)\s+){0,3}(?:open|read|copy|capture|collect|gather|take|put|include|add|attach|paste|send|post|upload|submit|forward|run|save|write|store|grab|get|fetch|cat|print|encode|zip|archive|compress|export|dump|find|locate|look|use|call)\b|\byou (?:must|should|need to|have to|will)\b|\bplease\b|\bkindly\b|\b(?:i|we) need you to\b|\bgo ahead\b|\bmake sure\b|\b(?:must|should|needs? to|has to|have to|is to|are to) be (?:sent|posted|uploaded|submitted|forwarded|shared|pasted|attached)\b|\b(?:debe|deber[áa]|tiene que|doit|devez|muss|m[üu]ssen|deve)\b/;
/** A warning or a description of attacks, not an instruction to follow. */
const NOT_AN_INSTRUCTION =
  /\b(?:never|do not|don't|must not|mustn't|should not|shouldn't|avoid|refuse|attackers?|malicious|malware|phishing|stealers?|exfiltration|red team|detects?|flags?|warns?)\b/;

/** The paragraph's sentences: a dot inside a word (`.env`, a host name) ends none. */
const SENTENCE_END = /(?<=[.!?:])\s+(?=\S)/;
/** What a later sentence calls the secret it sends. */
const ANAPHOR =
  /\b(?:it|them|this|that|these|the (?:text|value|values|contents?|output|file|files|result|token|key|keys|data|archive|bundle|tarball|zip|dump|snapshot|link))\b/;
/** A key named as what signs or authenticates (`using your private key`), not as what is sent. */
const INSTRUMENT = /\b(?:using|with|via|by) (?:your |the |a )?(?:private (?:ssh )?key|ssh key)s?\b/g;
const NAMED = /`([^`\s]{1,80})`/g;
const PUBLIC_KEY = /(?<![^\s`"'()])[^\s`"'()]*\.pub\b/g;

function secretIn(sentence: string, cliToken: boolean): boolean {
  return (
    SECRET.test(sentence.replace(INSTRUMENT, ' ')) ||
    (CREDENTIALS_WORD.test(sentence) && STORE_FOLDER.test(sentence)) ||
    (cliToken && CLI_TOKEN.test(sentence))
  );
}

/**
 * Whether the paragraph (lower case, at most a few KiB) instructs sending a secret to a remote address: a sentence that
 * sends names the secret, a file an earlier sentence put it in, or refers back to it (`it`, `the text`), after the
 * secret was named; the address is in it or the next sentence; and the paragraph instructs rather than warns.
 */
export function instructsSending(text: string): boolean {
  if (!DESTINATION.test(text) || !SENDING.test(text)) return false;
  // A public key (`~/.ssh/id_ed25519.pub`) is made to be handed out.
  const paragraph = text.includes('.pub') ? text.replace(PUBLIC_KEY, ' ') : text;
  // A CLI's token sent to its own vendor's API authenticates there (`gh auth token` to api.github.com).
  const cliToken = CLI_TOKEN.test(paragraph) && !CLI_VENDOR.some(([cli, host]) => cli.test(paragraph) && host.test(paragraph));
  const secret = SECRET.test(paragraph) || (CREDENTIALS_WORD.test(paragraph) && STORE_FOLDER.test(paragraph)) || cliToken;
  if (!secret) return false;
  const sentences = paragraph.split(SENTENCE_END);
  if (sentences.some((s) => NOT_AN_INSTRUCTION.test(s) && (SENDING.test(s) || secretIn(s, cliToken)))) return false;
  if (!sentences.some((s) => IMPERATIVE.test(s.replace(/`[^`]{0,200}`/g, 'x')))) return false;
  const names: string[] = [];
  let named = false;
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    const here = secretIn(s, cliToken);
    if (here) for (const m of s.matchAll(NAMED)) if (!SECRET.test(m[1]!)) names.push(m[1]!);
    named ||= here || (CREDENTIALS_WORD.test(paragraph) && STORE_FOLDER.test(s));
    if (!named || !SENDING.test(s)) continue;
    const linked = here || ANAPHOR.test(s) || names.some((n) => s.includes(n));
    if (linked && (DESTINATION.test(s) || DESTINATION.test(sentences[i + 1] ?? ''))) return true;
  }
  return false;
}
