import type { KeyboardEvent } from 'react';
import Nav from 'react-bootstrap/Nav';
import { Link } from 'react-router';

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
