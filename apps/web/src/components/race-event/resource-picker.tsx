import { useEffect, useId, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { RESOURCE_SEARCH_DEBOUNCE_MS } from '@paddock/contract/races';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/** Spec staff §9: the results hide 500 ms after the search loses focus. */
export const RESULTS_HIDE_MS = 500;

type Item = { id: number; name: string };

type Props<T extends Item> = {
  label: string;
  /** The query key the searches are cached under (the search text is added to it). */
  queryKey: readonly unknown[];
  /** The list for a search text (the server's popular ones when it is empty). */
  search: (text: string) => Promise<T[]>;
  onPick: (item: T) => void;
  /** Extra text after a result's name (a track's layout, a car's class). */
  describe?: (item: T) => string;
  /** Results already chosen are shown but cannot be picked again. */
  isChosen?: (item: T) => boolean;
  error?: string;
  placeholder?: string;
};

/**
 * A search box with results under it (the event modal's track and car pickers): searches
 * 1 s after the last key stroke, shows the results while it has focus and hides them 500 ms
 * after focus leaves, so a click on a result still lands.
 */
export function ResourcePicker<T extends Item>({
  label,
  queryKey,
  search: fetchResults,
  onPick,
  describe,
  isChosen,
  error,
  placeholder = 'Search…',
}: Props<T>) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(text.trim(), RESOURCE_SEARCH_DEBOUNCE_MS);
  const results = useQuery({
    queryKey: [...queryKey, search],
    queryFn: () => fetchResults(search),
    placeholderData: keepPreviousData,
    enabled: open,
  });
  const hide = useRef<ReturnType<typeof setTimeout> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const cancelHide = () => {
    if (hide.current) clearTimeout(hide.current);
    hide.current = null;
  };
  useEffect(() => cancelHide, []);
  /** Set while focus goes back to the box after a pick, which should not reopen the list. */
  const picking = useRef(false);
  const onFocus = () => {
    cancelHide();
    if (picking.current) picking.current = false;
    else setOpen(true);
  };
  const onBlur = () => {
    cancelHide();
    hide.current = setTimeout(() => setOpen(false), RESULTS_HIDE_MS);
  };
  const list = useRef<HTMLDivElement>(null);
  /** Arrow keys walk the results; from the first, up goes back to the box. */
  const focusResult = (index: number) => {
    const buttons = [...(list.current?.querySelectorAll('button:not(:disabled)') ?? [])];
    if (index < 0) input.current?.focus();
    else (buttons[Math.min(index, buttons.length - 1)] as HTMLButtonElement | undefined)?.focus();
  };
  const items = results.data ?? [];
  const searching = results.isFetching || text.trim() !== search;

  return (
    <Form.Group controlId={`${id}-search`} className="mb-2 position-relative">
      <Form.Label>{label}</Form.Label>
      <Form.Control
        ref={input}
        type="search"
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        isInvalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          cancelHide();
          setOpen(true);
        }}
        onFocus={onFocus}
        onBlur={onBlur}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.stopPropagation();
            setOpen(false);
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            focusResult(0);
          }
        }}
      />
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
      {open && (
        <div
          id={`${id}-results`}
          ref={list}
          className="border rounded mt-1 bg-body"
          onKeyDown={(e) => {
            if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
            e.preventDefault();
            const buttons = [...(list.current?.querySelectorAll('button:not(:disabled)') ?? [])];
            const at = buttons.indexOf(document.activeElement as Element);
            focusResult(at + (e.key === 'ArrowDown' ? 1 : -1));
          }}
        >
          <div className="small text-body-secondary px-2 py-1" aria-live="polite">
            {searching ? (
              <>
                <Spinner size="sm" animation="border" aria-hidden /> Searching…
              </>
            ) : items.length === 0 ? (
              'Nothing found.'
            ) : search ? (
              `${items.length} result${items.length === 1 ? '' : 's'}`
            ) : (
              'Popular'
            )}
          </div>
          {items.length > 0 && (
            <ListGroup variant="flush" as="ul" aria-label={`${label} results`}>
              {items.map((item) => {
                const chosen = isChosen?.(item) ?? false;
                return (
                  <ListGroup.Item key={item.id} as="li" className="p-0">
                    <button
                      type="button"
                      className="btn btn-link text-start w-100 text-decoration-none px-2 py-1"
                      disabled={chosen}
                      onFocus={onFocus}
                      onBlur={onBlur}
                      onClick={() => {
                        onPick(item);
                        setText('');
                        setOpen(false);
                        picking.current = true;
                        input.current?.focus({ preventScroll: true });
                        cancelHide();
                      }}
                    >
                      {item.name}
                      {describe && (
                        <span className="text-body-secondary small"> {describe(item)}</span>
                      )}
                      {chosen && <span className="small"> (chosen)</span>}
                    </button>
                  </ListGroup.Item>
                );
              })}
            </ListGroup>
          )}
        </div>
      )}
    </Form.Group>
  );
}
