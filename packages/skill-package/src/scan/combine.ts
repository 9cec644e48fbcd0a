/**
 * Combinations: findings that are each explainable alone but together describe an attack. They are decided once
 * the whole package has been read, from the strongest finding of each rule (kept or not), and added as findings
 * of their own:
 *
 * - `combo.credential-exfiltration` (critical): credentials are read in a script, code block or hidden comment,
 *   and data leaves — a command sending the environment or credential files, a script or code block that posts
 *   data in the same file as the read, a collector or raw-IP address in a script or code block, or prose asking
 *   to send credentials away.
 * - `combo.concealed-command` (critical, or high when both halves are mild): the package asks the agent to hide
 *   what it does or to run something silently, and holds a dangerous command (in a script, code block or hidden
 *   comment) or asks for data to be sent away.
 */
import type { FindingSink, Signal } from './findings.js';
import { rank } from './severity.js';
import type { Severity } from './types.js';

function executable(signal: Signal | undefined): signal is Signal {
  return signal !== undefined && signal.context !== 'prose';
}

function add(sink: FindingSink, rule: string, severity: Severity, anchor: Signal, message: string): void {
  sink.add(anchor.file, {
    rule,
    severity,
    line: anchor.line,
    context: anchor.context,
    text: anchor.excerpt,
    index: 0,
    length: anchor.excerpt.length,
    message,
  });
}

export function combine(sink: FindingSink, fileFacts: Map<string, Map<string, number>>): void {
  const s = (rule: string): Signal | undefined => sink.signals.get(rule);

  const read = s('command.credential-read');
  // A read weighed down to low is one a signature quotes (signature.ts), not one that runs.
  if (executable(read) && rank(read.severity) >= rank('medium')) {
    const sameFileSend = fileFacts.get(read.file)?.has('network-send') === true;
    // Sending weighed down to low or less (a quoted example, a signature) is no destination.
    const sends = (x: Signal | undefined): x is Signal => x !== undefined && rank(x.severity) >= rank('medium');
    const leaving =
      [s('command.exfiltrate'), s('agent.exfiltrate-data')].find(sends) ?? [s('url.collector'), s('url.raw-ip')].find(executable);
    if (leaving !== undefined || sameFileSend) {
      const other =
        leaving === undefined
          ? 'a network request that sends data from the same file'
          : `${leaving.rule} in ${leaving.file}${leaving.line === null ? '' : `:${leaving.line}`}`;
      add(
        sink,
        'combo.credential-exfiltration',
        'critical',
        read,
        `The package reads credentials (${read.file}${read.line === null ? '' : `:${read.line}`}) and sends data away (${other}): together, the pattern of a credential thief.`,
      );
    }
  }

  const hide = [s('agent.conceal-from-user'), s('agent.silent-execution')].filter(
    (x): x is Signal => x !== undefined && rank(x.severity) >= rank('medium'),
  );
  if (hide.length > 0) {
    const hider = hide.reduce((a, b) => (rank(b.severity) > rank(a.severity) ? b : a));
    let command: Signal | undefined;
    for (const signal of sink.signals.values()) {
      if (
        signal.family === 'dangerous-command' &&
        executable(signal) &&
        rank(signal.severity) >= rank('low') &&
        signal.rule.startsWith('command.')
      ) {
        if (command === undefined || rank(signal.severity) > rank(command.severity)) command = signal;
      }
    }
    const exfiltration = s('agent.exfiltrate-data');
    const partner = command ?? exfiltration;
    if (partner !== undefined) {
      const strong = rank(partner.severity) >= rank('medium') || rank(hider.severity) >= rank('high');
      add(
        sink,
        'combo.concealed-command',
        strong ? 'critical' : 'high',
        partner,
        `The package asks the agent to keep its actions from the user (${hider.file}${hider.line === null ? '' : `:${hider.line}`}) and holds ${partner.rule} here: together, an attempt to act against the user without their knowledge.`,
      );
    }
  }
}
