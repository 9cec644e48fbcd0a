import type { Invitation, OrgRole, RegistryClient } from '@skill-registry/client';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatTime, oneLine, Output, table } from '../output.js';
import { clientFor, resolveTarget, type Target } from '../registry.js';

const ROLES: readonly OrgRole[] = ['owner', 'admin', 'publisher'];

function role(value: string | undefined, where: string): OrgRole {
  if (value === undefined) throw usageError(`Give the role ${where}: ${ROLES.join(', ')}.`);
  const found = ROLES.find((r) => r === value);
  if (found === undefined) throw usageError(`Unknown role ${JSON.stringify(value)}; the roles are ${ROLES.join(', ')}.`);
  return found;
}

/** `@acme` → `acme`: an organisation is written either way, as in `@acme/pdf-tools`. */
const handleOf = (value: string): string => value.replace(/^@/, '');

/** The arguments an action takes, by name; too few or too many is a usage error showing the action's usage. */
function take(action: string, args: string[], names: string[], optional = 0): string[] {
  const usage = ['skill-registry org', action, ...names.map((n, i) => (i >= names.length - optional ? `[${n}]` : n))].join(' ');
  if (args.length < names.length - optional || args.length > names.length) throw usageError(`Usage: ${usage}`);
  return args;
}

function invitationTable(items: Invitation[]): string[] {
  return table(
    ['ID', 'ORGANISATION', 'USER', 'ROLE', 'INVITED BY', 'EXPIRES'],
    items.map((i) => [i.id, i.organisation, i.username, i.role, i.invited_by ?? '-', formatTime(i.expires_at)]),
  );
}

/** The caller's username, which `leave` removes from the organisation. */
async function myUsername(client: RegistryClient): Promise<string> {
  return (await client.me.get()).user.username;
}

const ACTIONS = 'list, create, show, members, invite, invitations, withdraw, accept, decline, role, remove or leave';

export const org: Command = {
  name: 'org',
  summary: 'create organisations, invite members, change roles',
  help: `Usage: skill-registry org list
       skill-registry org create HANDLE [--display-name TEXT]
       skill-registry org show HANDLE
       skill-registry org members HANDLE
       skill-registry org invite HANDLE USERNAME --role ROLE
       skill-registry org invitations [HANDLE]
       skill-registry org withdraw HANDLE INVITATION_ID
       skill-registry org accept INVITATION_ID
       skill-registry org decline INVITATION_ID
       skill-registry org role HANDLE USERNAME ROLE
       skill-registry org remove HANDLE USERNAME
       skill-registry org leave HANDLE

Organisations own skills named in their scope, @HANDLE/SLUG (\`skill-registry publish --scope HANDLE\`), which
their members manage by role:
  owner      everything: members of any role, deleting the organisation
  admin      members other than owners (invites admins and publishers), and every skill
  publisher  creates skills in the scope, uploads versions, edits metadata
Handles share one namespace with usernames. An organisation keeps at least one owner (exit 5 for the last owner
stepping down or leaving).

  list          the organisations you belong to, with your role
  create        a new organisation; you become its first owner
  show          an organisation, your role in it and its skills (public; members also see drafts and private skills)
  members       every member and role (members only)
  invite        invites a user with a role; they accept with \`org accept ID\` before it expires
  invitations   with HANDLE, the organisation's open invitations (owners and admins); without, the ones to you
  withdraw      withdraws an open invitation
  accept        joins the organisation an invitation to you is for
  decline       declines an invitation to you
  role          changes a member's role
  remove        removes a member (owners remove anyone, admins anyone but owners)
  leave         leaves an organisation

  --display-name TEXT   with create: shown beside the handle (default: the handle)
  --role ROLE           with invite: owner, admin or publisher

Every change needs an API key with skill:upload (login, or SKILL_REGISTRY_TOKEN).

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      'display-name': { type: 'string' },
      role: { type: 'string' },
    });
    const [action, ...rest] = positionals;
    if (values['display-name'] !== undefined && action !== 'create') throw usageError('--display-name goes with org create.');
    if (values.role !== undefined && action !== 'invite')
      throw usageError('--role goes with org invite (org role HANDLE USERNAME ROLE changes a role).');
    const out = new Output(io, values.json === true);
    const target: Target = await resolveTarget(io, values.registry);
    const authed = (): RegistryClient => clientFor(target, { authenticated: true });

    switch (action) {
      case 'list': {
        take(action, rest, []);
        const result = await authed().me.orgs();
        out.result(result, () =>
          result.items.length === 0
            ? 'You belong to no organisation.'
            : table(
                ['HANDLE', 'ROLE', 'NAME'],
                result.items.map((o) => [o.handle, o.role ?? '-', oneLine(o.display_name)]),
              ),
        );
        return EXIT.ok;
      }
      case 'create': {
        const [handle] = take(action, rest, ['HANDLE']);
        const created = await authed().orgs.create({ handle: handleOf(handle!), display_name: values['display-name'] });
        out.result(created, () => [
          `Created organisation ${created.handle}${created.display_name !== created.handle ? ` (${created.display_name})` : ''}; you are its owner.`,
          `Publish skills into it with: skill-registry publish --scope ${created.handle}`,
        ]);
        return EXIT.ok;
      }
      case 'show': {
        const handle = handleOf(take(action, rest, ['HANDLE'])[0]!);
        const client = clientFor(target);
        const [organisation, skills] = await Promise.all([client.orgs.get(handle), client.orgs.skills(handle, { page_size: 100 })]);
        out.result({ organisation, skills }, () => [
          `${organisation.handle} — ${organisation.display_name}`,
          `created: ${formatTime(organisation.created_at)}   your role: ${organisation.role ?? 'not a member'}`,
          '',
          ...(skills.items.length === 0
            ? ['No skills.']
            : [
                `Skills (${skills.total}):`,
                ...table(
                  ['SKILL', 'STATUS', 'VERSION', 'DESCRIPTION'],
                  skills.items.map((s) => [
                    s.full_name + (s.private ? ' (private)' : ''),
                    s.status,
                    s.latest_version ?? '-',
                    oneLine(s.description || s.name, 50),
                  ]),
                ).map((line) => `  ${line}`),
              ]),
        ]);
        return EXIT.ok;
      }
      case 'members': {
        const handle = handleOf(take(action, rest, ['HANDLE'])[0]!);
        const result = await authed().orgs.members(handle);
        out.result(result, () =>
          table(
            ['USERNAME', 'ROLE', 'SINCE'],
            result.items.map((m) => [m.username, m.role, formatTime(m.since)]),
          ),
        );
        return EXIT.ok;
      }
      case 'invite': {
        const [handle, username] = take(action, rest, ['HANDLE', 'USERNAME']);
        const invited = await authed().orgs.invite(handleOf(handle!), { username: username!, role: role(values.role, 'with --role') });
        out.result(invited, () => [
          `Invited ${invited.username} to ${invited.organisation} as ${invited.role}; the invitation expires ${formatTime(invited.expires_at)} UTC.`,
          `They accept with: skill-registry org accept ${invited.id}`,
        ]);
        return EXIT.ok;
      }
      case 'invitations': {
        const [handle] = take(action, rest, ['HANDLE'], 1);
        const client = authed();
        const result = handle === undefined ? await client.me.invitations.list() : await client.orgs.invitations(handleOf(handle));
        out.result(result, () => {
          if (result.items.length === 0)
            return handle === undefined ? 'No invitations to you.' : `No open invitations to ${handleOf(handle)}.`;
          return [
            ...invitationTable(result.items),
            ...(handle === undefined ? ['', 'Answer with: skill-registry org accept ID (or org decline ID)'] : []),
          ];
        });
        return EXIT.ok;
      }
      case 'withdraw': {
        const [handle, id] = take(action, rest, ['HANDLE', 'INVITATION_ID']);
        await authed().orgs.withdrawInvitation(handleOf(handle!), id!);
        out.result({ organisation: handleOf(handle!), withdrawn: id }, () => `Withdrew invitation ${id!}.`);
        return EXIT.ok;
      }
      case 'accept': {
        const [id] = take(action, rest, ['INVITATION_ID']);
        const joined = await authed().me.invitations.accept(id!);
        out.result(joined, () => `Joined ${joined.handle} as ${joined.role ?? 'a member'}.`);
        return EXIT.ok;
      }
      case 'decline': {
        const [id] = take(action, rest, ['INVITATION_ID']);
        await authed().me.invitations.decline(id!);
        out.result({ declined: id }, () => `Declined invitation ${id!}.`);
        return EXIT.ok;
      }
      case 'role': {
        const [handle, username, newRole] = take(action, rest, ['HANDLE', 'USERNAME', 'ROLE']);
        const member = await authed().orgs.setRole(handleOf(handle!), username!, { role: role(newRole, 'as the third argument') });
        out.result(
          { organisation: handleOf(handle!), ...member },
          () => `${member.username} is now ${member.role} of ${handleOf(handle!)}.`,
        );
        return EXIT.ok;
      }
      case 'remove': {
        const [handle, username] = take(action, rest, ['HANDLE', 'USERNAME']);
        await authed().orgs.removeMember(handleOf(handle!), username!);
        out.result({ organisation: handleOf(handle!), removed: username }, () => `Removed ${username!} from ${handleOf(handle!)}.`);
        return EXIT.ok;
      }
      case 'leave': {
        const handle = handleOf(take(action, rest, ['HANDLE'])[0]!);
        const client = authed();
        const username = await myUsername(client);
        await client.orgs.removeMember(handle, username);
        out.result({ organisation: handle, removed: username }, () => `You (${username}) left ${handle}.`);
        return EXIT.ok;
      }
      default:
        throw usageError(
          action === undefined ? `Say what to do: org ${ACTIONS}.` : `Unknown org action ${JSON.stringify(action)}; use ${ACTIONS}.`,
        );
    }
  },
};
