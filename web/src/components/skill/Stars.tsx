/** A rating as five stars, read out as "4 out of 5". */
export function Stars({ rating, label }: { rating: number; label?: string }) {
  const rounded = Math.round(rating * 2) / 2;
  return (
    <span className="stars" role="img" aria-label={label ?? `${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <svg
          key={i}
          viewBox="0 0 16 16"
          aria-hidden="true"
          className={i <= rounded ? 'star on' : i - 0.5 === rounded ? 'star half' : 'star'}
        >
          <path d="M8 1.5l1.9 4 4.4.5-3.3 3 .9 4.4L8 11.2 4.1 13.4 5 9 1.7 6l4.4-.5z" />
        </svg>
      ))}
    </span>
  );
}
