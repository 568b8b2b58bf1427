import type { InboxEvent } from '@reskin/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import { Link } from 'react-router';
import { getInbox, useInbox, useMarkInboxRead } from '../../../api/inbox';
import { DateTime } from '../../../components/ui/date-time';
import { useSession } from '../../../lib/session/session-context';
import { eventLink, eventSentence } from '../lib/event-text';

/** The bell's drawing (Bootstrap Icons' "bell", MIT). */
function BellIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M8 16a2 2 0 0 0 2-2H6a2 2 0 0 0 2 2M8 1.918l-.797.161A4 4 0 0 0 4 6c0 .628-.134 2.197-.459 3.742-.16.767-.376 1.566-.663 2.258h10.244c-.287-.692-.502-1.49-.663-2.258C12.134 8.197 12 6.628 12 6a4 4 0 0 0-3.203-3.92zM14.22 12c.223.447.481.801.78 1H1c.299-.199.557-.553.78-1C2.68 10.2 3 6.88 3 6c0-2.42 1.72-4.44 4.005-4.901a1 1 0 1 1 1.99 0A5 5 0 0 1 13 6c0 .88.32 4.2 1.22 6" />
    </svg>
  );
}

/** The unread count as the bell's name says it. */
export const bellLabel = (unread: number) => (unread === 0 ? 'Inbox' : `Inbox: ${unread} unread`);

function EventItem({
  event,
  roleTypeId,
  onOpen,
}: {
  event: InboxEvent;
  roleTypeId: number;
  onOpen: () => void;
}) {
  const unread = event.readAt === null;
  const to = eventLink(event, roleTypeId);
  const body = (
    <>
      <div className="d-flex justify-content-between gap-2">
        <span className={unread ? 'fw-semibold' : undefined}>{eventSentence(event)}</span>
        {unread && (
          <Badge bg="primary" pill className="align-self-start">
            New
          </Badge>
        )}
      </div>
      {event.text && (
        <div className="small text-body-secondary text-break" style={{ whiteSpace: 'pre-wrap' }}>
          {event.text}
        </div>
      )}
      <div className="small text-body-secondary">
        <DateTime value={event.createdAt} />
      </div>
    </>
  );
  return to === null ? (
    <ListGroup.Item data-event-id={event.id} data-unread={unread}>
      {body}
    </ListGroup.Item>
  ) : (
    <ListGroup.Item action as={Link} to={to} onClick={onOpen} data-event-id={event.id} data-unread={unread}>
      {body}
    </ListGroup.Item>
  );
}

/**
 * The inbox: a bell in the navigation bar with the unread count, asked for every 30 s and whenever the
 * window gets focus, opening the list of events, newest first: each in words with its time, a link to the screen
 * it is about (following it marks it read), 'Mark all read', and older events on demand. Loaded only for a
 * logged-in user, in a chunk of its own (the landing page's budget).
 */
export function InboxBell() {
  const { roleTypeId } = useSession();
  const inbox = useInbox();
  const markRead = useMarkInboxRead();
  const [open, setOpen] = useState(false);
  // Closed by following an event's link: the focus stays on the new page's heading (decision 0051), not back on the
  // bell, and the dialog no longer holds the focus while it fades out (the new page's heading may already be there).
  const [followed, setFollowed] = useState(false);
  const [older, setOlder] = useState<InboxEvent[]>([]);
  const [noMore, setNoMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const unread = inbox.data?.unread ?? 0;
  const newest = inbox.data?.events ?? [];
  const shownIds = new Set(newest.map((event) => event.id));
  const events = [...newest, ...older.filter((event) => !shownIds.has(event.id))];

  const openEvent = (event: InboxEvent) => {
    setFollowed(true);
    setOpen(false);
    if (event.readAt === null) markRead.mutate({ ids: [event.id] });
  };
  const showOlder = () => {
    const last = events.at(-1);
    if (!last) return;
    setLoadingOlder(true);
    getInbox(last.id)
      .then(
        (page) => {
          setOlder((current) => [...current, ...page.events]);
          if (page.events.length === 0) setNoMore(true);
        },
        () => {},
      )
      .finally(() => setLoadingOlder(false));
  };

  return (
    <>
      <Button
        variant="link"
        className="nav-link position-relative d-inline-flex align-items-center gap-1"
        aria-label={bellLabel(unread)}
        aria-haspopup="dialog"
        data-testid="inbox-bell"
        onClick={() => {
          setFollowed(false);
          setOpen(true);
        }}
      >
        <BellIcon />
        {unread > 0 && (
          <Badge bg="danger" pill data-testid="inbox-unread">
            {unread}
          </Badge>
        )}
      </Button>
      <Modal
        show={open}
        onHide={() => setOpen(false)}
        restoreFocus={!followed}
        enforceFocus={!followed}
        scrollable
        aria-labelledby="inbox-title"
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="inbox-title" className="fs-5">
            Inbox{unread > 0 && ` (${unread} unread)`}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="p-0">
          {inbox.isError && (
            <p className="m-3">The inbox cannot be loaded now; it is asked for again shortly.</p>
          )}
          {inbox.isSuccess && events.length === 0 && <p className="m-3">Nothing here yet.</p>}
          {events.length > 0 && (
            <ListGroup variant="flush" aria-label="Inbox events">
              {events.map((event) => (
                <EventItem
                  key={event.id}
                  event={event}
                  roleTypeId={roleTypeId}
                  onOpen={() => openEvent(event)}
                />
              ))}
            </ListGroup>
          )}
        </Modal.Body>
        <Modal.Footer className="justify-content-between">
          <Button
            variant="outline-secondary"
            size="sm"
            onClick={showOlder}
            disabled={loadingOlder || noMore || events.length === 0}
          >
            {noMore ? 'No older events' : 'Show older'}
          </Button>
          <Button
            size="sm"
            disabled={unread === 0 || markRead.isPending}
            onClick={() =>
              markRead.mutate(
                { all: true },
                {
                  onSuccess: () =>
                    setOlder((current) =>
                      current.map((event) => ({
                        ...event,
                        readAt: event.readAt ?? new Date().toISOString(),
                      })),
                    ),
                },
              )
            }
          >
            Mark all read
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
