import { transfers } from '../api/endpoints';
import type { Transfer } from '../api/types';
import { useAction } from '../hooks/useAction';
import { useResource } from '../hooks/useResource';
import { formatDate } from '../lib/format';
import { useNotify } from './Notices';
import { ErrorMessage } from './States';

/**
 * Skills offered to the caller, or to an organisation the caller owns or administers: accept (the skill moves at
 * once) or decline. Shows nothing when no offer waits.
 */
export function IncomingOffers({ onAccepted }: { onAccepted?: () => void }) {
  const { resource, reload, setData } = useResource((signal) => transfers.received(signal), []);
  const offers = resource.data?.items ?? [];
  if (resource.status === 'error')
    return <ErrorMessage error={resource.error} retry={reload} title="Offers of skills could not be loaded" />;
  if (offers.length === 0) return null;
  const drop = (id: string) => setData((current) => current && { items: current.items.filter((t) => t.id !== id) });
  return (
    <section className="card answer-list" aria-labelledby="incoming-offers-title">
      <h2 id="incoming-offers-title" className="panel-title">
        Skills offered to you
      </h2>
      <ul className="plain-list">
        {offers.map((offer) => (
          <Offer
            key={offer.id}
            offer={offer}
            onDone={() => {
              drop(offer.id);
            }}
            onAccepted={onAccepted}
          />
        ))}
      </ul>
    </section>
  );
}

function Offer({ offer, onDone, onAccepted }: { offer: Transfer; onDone: () => void; onAccepted: (() => void) | undefined }) {
  const notify = useNotify();
  const { busy, error, run } = useAction();
  return (
    <li className="answer-item" aria-label={`Offer of ${offer.skill}`}>
      <div className="answer-text">
        <code className="full-name">{offer.skill}</code>, offered to <strong>{offer.to}</strong>
        {offer.offered_by ? ` by ${offer.offered_by}` : ''}. It arrives as <code className="full-name">{offer.new_name}</code>.{' '}
        <span className="muted small">Open until {formatDate(offer.expires_at)}.</span>
      </div>
      <div className="answer-actions">
        <button
          type="button"
          className="button button-small button-primary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await transfers.accept(offer.id);
              notify(`${offer.new_name} is now yours.`);
              onDone();
              onAccepted?.();
            })
          }
        >
          Accept <span className="visually-hidden">{offer.skill}</span>
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await transfers.decline(offer.id);
              notify(`Offer of ${offer.skill} declined.`);
              onDone();
            })
          }
        >
          Decline <span className="visually-hidden">{offer.skill}</span>
        </button>
      </div>
      {error !== null && <ErrorMessage error={error} />}
    </li>
  );
}
