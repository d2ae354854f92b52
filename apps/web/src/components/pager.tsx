import Button from 'react-bootstrap/Button';

type Props = {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  /** What is paged, for screen readers: "laps", "cars". */
  label: string;
};

/** Previous/next arrows, shown only when there is more than one page (spec §2 /laps). */
export function Pager({ page, pageCount, onPage, label }: Props) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={`Pages of ${label}`} className="d-flex align-items-center gap-2 my-3">
      <Button
        variant="outline-secondary"
        size="sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label="Previous page"
      >
        ‹
      </Button>
      <span>
        Page {page} of {pageCount}
      </span>
      <Button
        variant="outline-secondary"
        size="sm"
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
        aria-label="Next page"
      >
        ›
      </Button>
    </nav>
  );
}
