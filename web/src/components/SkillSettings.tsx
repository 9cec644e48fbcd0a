import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router-dom';
import { skills, transfers } from '../api/endpoints';
import type { Skill } from '../api/types';
import { useAction } from '../hooks/useAction';
import { useResource } from '../hooks/useResource';
import { formatDate } from '../lib/format';
import { orgHref } from '../lib/names';
import { TextField } from './Field';
import { useNotify } from './Notices';
import { ErrorMessage, Loading } from './States';

interface SkillSettingsProps {
  skill: Skill;
  /** The owning user, or an owner or admin of the owning organisation: they rename, offer and change privacy. */
  mayMove: boolean;
  onChange: (skill: Skill) => void;
}

/**
 * A skill's name and owner: rename it in its scope, offer it to another user or organisation (and withdraw the
 * offer), make an organisation's skill private, and the earlier names that still lead to it.
 */
export function SkillSettings({ skill, mayMove, onChange }: SkillSettingsProps) {
  const aliases = useResource((signal) => skills.aliases(skill.full_name, signal), [skill.full_name]).resource.data?.items;
  return (
    <div className="skill-settings">
      {!mayMove && (
        <p className="alert alert-info">
          {skill.owner.kind === 'organisation'
            ? `Only owners and admins of @${skill.owner.handle} rename this skill, move it to another owner or change who sees it.`
            : 'Only the owner renames this skill or moves it to another owner.'}
        </p>
      )}
      {skill.owner.kind === 'organisation' && <Privacy skill={skill} disabled={!mayMove} onChange={onChange} />}
      {mayMove && <Rename skill={skill} onChange={onChange} />}
      {mayMove && <Transfer skill={skill} />}
      {aliases && aliases.length > 0 && (
        <section aria-labelledby="aliases-title" className="settings-section">
          <h2 id="aliases-title" className="panel-title">
            Earlier names
          </h2>
          <p className="small muted">Each still leads to this skill; the registry answers them with its name now.</p>
          <ul className="plain-list">
            {aliases.map((alias) => (
              <li key={alias.name}>
                <code className="full-name">{alias.name}</code> <span className="muted small">until {formatDate(alias.until)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function Privacy({ skill, disabled, onChange }: { skill: Skill; disabled: boolean; onChange: (skill: Skill) => void }) {
  const notify = useNotify();
  const { busy, error, run } = useAction();
  return (
    <section aria-labelledby="privacy-title" className="settings-section">
      <h2 id="privacy-title" className="panel-title">
        Who sees it
      </h2>
      <label className="choice">
        <input
          type="checkbox"
          checked={skill.private}
          disabled={disabled || busy}
          onChange={(e) => {
            const next = e.target.checked;
            void run(async () => {
              onChange(await skills.update(skill.full_name, { private: next }));
              notify(next ? 'The skill is now private.' : 'The skill is now visible to everyone once published.');
            });
          }}
        />
        <span>
          <span className="choice-label">Private</span>
          <span className="choice-hint">
            Only members of <Link to={orgHref(skill.owner.handle)}>@{skill.owner.handle}</Link> (and administrators) see it.
          </span>
        </span>
      </label>
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}

function Rename({ skill, onChange }: { skill: Skill; onChange: (skill: Skill) => void }) {
  const notify = useNotify();
  const [slug, setSlug] = useState('');
  const { busy, error, run } = useAction();
  const problem = slug.trim() === '' ? 'Type the new slug.' : slug.trim() === skill.slug ? 'That is its slug now.' : undefined;
  const [submitted, setSubmitted] = useState(false);

  function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    void run(async () => {
      const renamed = await skills.rename(skill.full_name, slug.trim());
      notify(`Renamed to ${renamed.full_name}. The name ${skill.full_name} keeps leading to it.`);
      onChange(renamed);
    });
  }

  return (
    <section aria-labelledby="rename-title" className="settings-section">
      <h2 id="rename-title" className="panel-title">
        Rename
      </h2>
      <form onSubmit={submit} noValidate className="inline-form">
        <TextField
          label="New slug"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
          error={submitted ? problem : undefined}
          placeholder={skill.slug}
          hint={`It stays in the same scope${skill.scope ? ` (@${skill.scope}/…)` : ''}; versions, downloads and feedback stay with it.`}
          spellCheck={false}
          autoCapitalize="off"
          maxLength={100}
        />
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Renaming…' : 'Rename skill'}
          </button>
        </div>
      </form>
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}

function Transfer({ skill }: { skill: Skill }) {
  const notify = useNotify();
  const { resource, reload, setData } = useResource((signal) => transfers.ofSkill(skill.full_name, signal), [skill.full_name]);
  const [to, setTo] = useState('');
  const [slug, setSlug] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const offerAction = useAction();
  const withdrawAction = useAction();
  const offer = resource.data?.items[0];
  const problem = to.trim().replace(/^@/, '') === '' ? 'Type the username or organisation handle to offer it to.' : undefined;

  function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    void offerAction.run(async () => {
      const made = await transfers.offer(skill.full_name, {
        to: to.trim(),
        ...(slug.trim() === '' ? {} : { slug: slug.trim() }),
      });
      setData(() => ({ items: [made] }));
      setTo('');
      setSlug('');
      setSubmitted(false);
      notify(`Offered to ${made.to}. The skill moves once they accept.`);
    });
  }

  return (
    <section aria-labelledby="transfer-title" className="settings-section">
      <h2 id="transfer-title" className="panel-title">
        Move to another owner
      </h2>
      <p className="small muted">
        Offer the skill to a user or an organisation; it moves, with its versions, downloads and feedback, once they accept.
        {skill.scope ? " A scoped skill takes the receiver's scope." : ' An unscoped skill stays unscoped.'}
      </p>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!resource.data && resource.status === 'loading' && <Loading inline label="Looking for an open offer…" />}
      {offer && (
        <div className="alert alert-info open-offer" role="region" aria-label="Open offer">
          <p>
            Offered to <strong>{offer.to}</strong> as <code className="full-name">{offer.new_name}</code>, until{' '}
            {formatDate(offer.expires_at)}.
          </p>
          <button
            type="button"
            className="button button-small"
            disabled={withdrawAction.busy}
            onClick={() =>
              void withdrawAction.run(async () => {
                await transfers.withdraw(offer.id);
                setData(() => ({ items: [] }));
                notify('Offer withdrawn.');
              })
            }
          >
            Withdraw offer
          </button>
          {withdrawAction.error !== null && <ErrorMessage error={withdrawAction.error} />}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <TextField
            label="Offer to"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={submitted ? problem : undefined}
            placeholder="acme or a username"
            hint="A username or an organisation handle."
            spellCheck={false}
            autoCapitalize="off"
            maxLength={100}
          />
          <TextField
            label="Slug on arrival"
            optional
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
            placeholder={skill.slug}
            hint="Left empty, it keeps its slug."
            spellCheck={false}
            autoCapitalize="off"
            maxLength={100}
          />
        </div>
        {offerAction.error !== null && <ErrorMessage error={offerAction.error} />}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={offerAction.busy}>
            {offerAction.busy ? 'Offering…' : offer ? 'Replace the offer' : 'Offer skill'}
          </button>
        </div>
      </form>
    </section>
  );
}
