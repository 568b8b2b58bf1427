import { useCallback, type KeyboardEvent } from 'react';
import Nav from 'react-bootstrap/Nav';
import { Link, useSearchParams } from 'react-router';

export interface ScreenTab<K extends string> {
  key: K;
  label: string;
}

interface ScreenTabsProps<K extends string> {
  /** Where Back goes. */
  backTo: string;
  tabs: readonly ScreenTab<K>[];
  active: K;
  onSelect: (key: K) => void;
  /** The tab list's accessible name. */
  label: string;
}

/** The query key of the selected tab: `?tab=skeleton`. */
export const tabQueryKey = 'tab';

/**
 * A screen's selected tab, kept in the URL (`?tab=`), so a reload, a pasted link or a shared one opens the same tab.
 * A missing or unknown tab is `fallback`. Choosing a tab replaces the URL (no history entry per tab) and keeps the
 * other query keys (the ids).
 */
export function useTabParam<K extends string>(
  tabs: readonly ScreenTab<K>[],
  fallback: K,
): [K, (key: K) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get(tabQueryKey);
  const active = tabs.find((tab) => tab.key === requested)?.key ?? fallback;
  const select = useCallback(
    (key: K) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set(tabQueryKey, key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [active, select];
}

const arrowSteps: Record<string, number> = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

/**
 * The tab bar of the play and workbench screens (SPEC §2): a Back link, then the tabs. Back is a plain link
 * beside the tab list, so the Tab key reaches it; the tabs use a roving tabindex (react-bootstrap gives the
 * inactive ones tabIndex -1), so the arrow keys move between them.
 */
export function ScreenTabs<K extends string>({ backTo, tabs, active, onSelect, label }: ScreenTabsProps<K>) {
  const moveByKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = arrowSteps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const index = (tabs.findIndex((tab) => tab.key === active) + step + tabs.length) % tabs.length;
    const next = tabs[index];
    if (!next) return;
    onSelect(next.key);
    event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[index]?.focus();
  };

  return (
    <Nav variant="tabs" className="card-header-tabs">
      <Nav.Item>
        <Nav.Link as={Link} to={backTo}>
          Back
        </Nav.Link>
      </Nav.Item>
      <div role="tablist" aria-label={label} className="d-flex flex-wrap" onKeyDown={moveByKey}>
        {tabs.map((tab) => (
          <Nav.Item key={tab.key} role="presentation">
            <Nav.Link
              as="button"
              type="button"
              role="tab"
              aria-selected={active === tab.key}
              active={active === tab.key}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </Nav.Link>
          </Nav.Item>
        ))}
      </div>
    </Nav>
  );
}
