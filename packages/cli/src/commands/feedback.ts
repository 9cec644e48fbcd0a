import { COMMON_HELP, integerOption, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatTime, oneLine, Output, table } from '../output.js';
import { clientFor, resolveTarget } from '../registry.js';

export const feedback: Command = {
  name: 'feedback',
  summary: 'rate or comment on a skill, or read what yours received',
  help: `Usage: skill-registry feedback SKILL [--rating N] [--comment TEXT] [--version V] [--json]
       skill-registry feedback SKILL --list [--json]

Leaves a rating (1 to 5), a comment, or both, on a published skill (SKILL: a slug, @scope/slug or an id);
when logged in, as you. With --list, shows
the feedback a skill of yours received (its owner only).

  --rating N        1 to 5
  --comment TEXT    at most 5,000 characters
  --version V       the version the feedback is about
  --list            list the skill's feedback instead (newest first)
  --page N          with --list: the page (20 a page)

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      rating: { type: 'string' },
      comment: { type: 'string' },
      version: { type: 'string' },
      list: { type: 'boolean' },
      page: { type: 'string' },
    });
    const [skill, ...extra] = positionals;
    if (skill === undefined || extra.length > 0) throw usageError('Usage: skill-registry feedback SKILL --rating N --comment TEXT');
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);

    if (values.list) {
      if (values.rating !== undefined || values.comment !== undefined) throw usageError('--list does not take --rating or --comment.');
      const page = integerOption('page', values.page, 1, 1_000_000);
      const result = await clientFor(target, { authenticated: true }).feedback.list(skill, {
        version: values.version,
        page,
      });
      out.result(result, () => [
        `${result.summary.count} ratings and comments${result.summary.average_rating !== null ? `, average rating ${result.summary.average_rating}` : ''}.`,
        ...(result.items.length > 0
          ? table(
              ['DATE', 'VERSION', 'RATING', 'AUTHOR', 'COMMENT'],
              result.items.map((f) => [
                formatTime(f.created_at),
                f.version ?? '-',
                f.rating === null ? '-' : String(f.rating),
                f.author?.username ?? 'anonymous',
                oneLine(f.comment, 60),
              ]),
            )
          : []),
      ]);
      return EXIT.ok;
    }

    const rating = integerOption('rating', values.rating, 1, 5);
    if (rating === undefined && values.comment === undefined) throw usageError('Give --rating N (1 to 5), --comment TEXT, or both.');
    const created = await clientFor(target).feedback.submit({
      skill_id: skill,
      rating,
      comment: values.comment,
      version: values.version,
    });
    out.result(
      created,
      () =>
        `Thank you: your feedback on ${skill}${created.version ? ` ${created.version}` : ''} was recorded${created.author ? ` as ${created.author.username}` : ''}.`,
    );
    return EXIT.ok;
  },
};
