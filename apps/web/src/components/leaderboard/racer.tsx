/** A racer's flag (served by this app), or nothing. */
export function Flag({ url, label }: { url: string; label: string }) {
  if (!url) return null;
  const code = url.match(/\/([a-z]{2})\.svg$/)?.[1]?.toUpperCase() ?? '';
  return (
    <img
      src={url}
      alt={`${label} flag${code ? ` (${code})` : ''}`}
      width={24}
      height={18}
      className="rounded-1 border"
    />
  );
}

/** An Instagram handle, linked to the profile. */
export function Social({ handle }: { handle: string }) {
  if (!handle) return null;
  const clean = handle.replace(/^@/, '');
  return (
    <a href={`https://instagram.com/${encodeURIComponent(clean)}`} target="_blank" rel="noreferrer">
      @{clean}
      <span className="visually-hidden"> on Instagram (opens in a new tab)</span>
    </a>
  );
}
