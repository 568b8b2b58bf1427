import { limits, messages } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import type { Suggestion } from '../lib/suggestion';
import { useDebouncedValue } from '../lib/use-debounced-value';

interface TypeaheadProps {
  /** The input's id (and its query key prefix). */
  id: string;
  label: string;
  placeholder?: string;
  search: (text: string, signal?: AbortSignal) => Promise<Suggestion[]>;
  /** Whether a suggestion is chosen (editing the text drops it). */
  selected: boolean;
  onSelect: (suggestion: Suggestion | null) => void;
  /** A problem with the chosen value, shown under the field (e.g. the game is already assigned to the user). */
  error?: string;
}

/**
 * A combobox that searches as the user types (SPEC §5: 500 ms debounce, 10 results), lists the hits in a
 * listbox and announces 'N results available', 'No results available' or the failure in a live region.
 */
export function Typeahead({ id, label, placeholder, search, selected, onSelect, error }: TypeaheadProps) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const term = useDebouncedValue(text.trim(), limits.typeaheadDebounceMs);
  const listId = useId();
  const searching = open && term !== '' && term === text.trim();

  const hits = useQuery({
    queryKey: ['typeahead', id, term],
    queryFn: ({ signal }) => search(term, signal),
    enabled: searching,
    staleTime: 10_000,
  });
  const suggestions = searching && hits.isSuccess ? hits.data.slice(0, limits.searchPageSize) : [];

  let status = '';
  if (searching && hits.isError) status = messages.typeaheadFailed;
  else if (searching && hits.isSuccess)
    status = suggestions.length === 0 ? messages.typeaheadNone : messages.typeaheadCount(suggestions.length);

  const choose = (suggestion: Suggestion) => {
    setText(suggestion.label);
    setOpen(false);
    setActive(-1);
    onSelect(suggestion);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && suggestions.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length > 0) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1));
    } else if (event.key === 'Enter' && active >= 0 && suggestions[active]) {
      event.preventDefault();
      choose(suggestions[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  const expanded = suggestions.length > 0;
  return (
    <Form.Group className="mb-3 position-relative" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="text"
        role="combobox"
        autoComplete="off"
        placeholder={placeholder}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        value={text}
        isValid={selected && !error}
        isInvalid={error !== undefined}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
          if (selected) onSelect(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {error && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
      <div className="form-text" role="status" aria-live="polite" data-testid={`${id}-status`}>
        {status}
      </div>
      {expanded && (
        <ListGroup
          id={listId}
          role="listbox"
          aria-label={`${label} suggestions`}
          className="position-absolute w-100 shadow-sm"
          style={{ zIndex: 1000 }}
        >
          {suggestions.map((suggestion, index) => (
            <ListGroup.Item
              key={suggestion.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              active={index === active}
              action
              as="div"
              // mousedown would blur the input and close the list before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(suggestion)}
            >
              {suggestion.label}
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </Form.Group>
  );
}
