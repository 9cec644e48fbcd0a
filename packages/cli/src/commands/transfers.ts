import type { RegistryClient, Transfer } from '@skill-registry/client';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatTime, Output, table } from '../output.js';
import { clientFor, resolveTarget, type Target } from '../registry.js';

/** The arguments an action takes, by name; too few or too many is a usage error showing the action's usage. */
function take(action: string, args: string[], names: string[]): string[] {
  if (args.length !== names.length) throw usageError(`Usage: skill-registry transfer ${[action, ...names].join(' ')}`);
  return args;
}

function transferTable(items: Transfer[]): string[] {
  return table(
    ['ID', 'SKILL', 'TO', 'NEW NAME', 'OFFERED BY', 'EXPIRES'],
    items.map((t) => [t.id, t.skill, t.to, t.new_name, t.offered_by ?? '-', formatTime(t.expires_at)]),
  );
}

const ACTIONS = 'offer, list, accept, decline, withdraw or rename';

export const transfer: Command = {
  name: 'transfer',
  summary: 'move a skill to another user or organisation, or rename it',
  help: `Usage: skill-registry transfer offer SKILL TO [--slug NEW_SLUG]
       skill-registry transfer list [SKILL]
       skill-registry transfer accept TRANSFER_ID
       skill-registry transfer decline TRANSFER_ID
       skill-registry transfer withdraw TRANSFER_ID
       skill-registry transfer rename SKILL NEW_SLUG

A skill's owner (its user, or an owner or admin of its organisation) offers it to a user or an organisation (TO, a
username or @handle); the receiver accepts before the offer expires, and the skill moves with its versions, downloads
and feedback. A skill in a scope takes the receiver's (@ben/pdf-tools offered to @acme becomes @acme/pdf-tools). Its
old name keeps leading to it: lock files and links that name it still work.

  offer     offers SKILL to TO, optionally under a new slug
  list      without SKILL, the offers you may answer; with SKILL, its open offer
  accept    takes an offered skill (yours, or your organisation's)
  decline   declines an offer
  withdraw  takes back an offer you made
  rename    gives SKILL a new slug in its scope

  --slug NEW_SLUG   with offer: the slug the skill takes on arrival

Every change needs an API key with skill:upload (login, or SKILL_REGISTRY_TOKEN).

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { slug: { type: 'string' } });
    const [action, ...rest] = positionals;
    if (values.slug !== undefined && action !== 'offer')
      throw usageError('--slug goes with transfer offer (transfer rename SKILL SLUG renames).');
    const out = new Output(io, values.json === true);
    const target: Target = await resolveTarget(io, values.registry);
    const authed = (): RegistryClient => clientFor(target, { authenticated: true });

    switch (action) {
      case 'offer': {
        const [skill, to] = take(action, rest, ['SKILL', 'TO']);
        const offered = await authed().skills.offerTransfer(skill!, { to: to!, slug: values.slug });
        out.result(offered, () => [
          `Offered ${offered.skill} to ${offered.to}; it becomes ${offered.new_name} when accepted (before ${formatTime(offered.expires_at)} UTC).`,
          `They accept with: skill-registry transfer accept ${offered.id}`,
        ]);
        return EXIT.ok;
      }
      case 'list': {
        if (rest.length > 1) throw usageError('Usage: skill-registry transfer list [SKILL]');
        const client = authed();
        const result = rest[0] === undefined ? await client.skills.receivedTransfers() : await client.skills.transfer(rest[0]);
        out.result(result, () =>
          result.items.length === 0
            ? rest[0] === undefined
              ? 'No offers to you.'
              : `No open offer of ${rest[0]}.`
            : [
                ...transferTable(result.items),
                ...(rest[0] === undefined ? ['', 'Answer with: skill-registry transfer accept ID (or decline ID)'] : []),
              ],
        );
        return EXIT.ok;
      }
      case 'accept': {
        const [id] = take(action, rest, ['TRANSFER_ID']);
        const client = authed();
        const offer = (await client.skills.receivedTransfers()).items.find((t) => t.id === id);
        await client.skills.acceptTransfer(id!);
        out.result({ accepted: id, skill: offer?.new_name ?? null }, () =>
          offer === undefined ? `Accepted transfer ${id!}.` : `Accepted: ${offer.skill} is now ${offer.new_name}.`,
        );
        return EXIT.ok;
      }
      case 'decline': {
        const [id] = take(action, rest, ['TRANSFER_ID']);
        await authed().skills.declineTransfer(id!);
        out.result({ declined: id }, () => `Declined transfer ${id!}.`);
        return EXIT.ok;
      }
      case 'withdraw': {
        const [id] = take(action, rest, ['TRANSFER_ID']);
        await authed().skills.withdrawTransfer(id!);
        out.result({ withdrawn: id }, () => `Withdrew transfer ${id!}.`);
        return EXIT.ok;
      }
      case 'rename': {
        const [skill, slug] = take(action, rest, ['SKILL', 'NEW_SLUG']);
        const renamed = await authed().skills.rename(skill!, slug!);
        out.result(renamed, () => `Renamed ${skill!} to ${renamed.full_name}; the old name still leads to it.`);
        return EXIT.ok;
      }
      default:
        throw usageError(
          action === undefined
            ? `Say what to do: transfer ${ACTIONS}.`
            : `Unknown transfer action ${JSON.stringify(action)}; use ${ACTIONS}.`,
        );
    }
  },
};
