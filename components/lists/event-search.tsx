import { SearchForm } from './search-form';
import { EmptyState } from './empty-state';
import { RelativeTime } from './relative-time';
import { Cell, Header, IdLink, ListHead, ListTable, Row } from './table';
import { searchAppEvents } from '@/lib/data/event-search';
import { MAX_FIND_LENGTH, MIN_FIND_LENGTH } from '@/lib/session-service/search';
import { sessionPath } from '@/lib/paths';

/** How many events the tab lists. */
const LIMIT = 50;

/** The app's events by text: a search form over `?tab=events&text=…`, and the events found, each linking to its session's filtered timeline. */
export async function EventSearch({ appName, pathname, text, now }: { appName: string; pathname: string; text?: string; now: number }) {
  const wanted = text?.trim().slice(0, MAX_FIND_LENGTH) ?? '';
  return (
    <section aria-label="Events">
      <SearchForm
        label="Search events"
        pathname={pathname}
        keep={{ tab: 'events' }}
        fields={[{ name: 'text', label: 'Event text contains', value: wanted, placeholder: 'e.g. refund, a tool name or an error code' }]}
        hint={`Every session of ${appName}: the events' text parts, tool call and response names, error codes and messages, case-insensitively (${MIN_FIND_LENGTH} characters or more).`}
      />
      {wanted.length < MIN_FIND_LENGTH ? null : <EventResults appName={appName} text={wanted} now={now} />}
    </section>
  );
}

async function EventResults({ appName, text, now }: { appName: string; text: string; now: number }) {
  const result = await searchAppEvents({ appName, text, limit: LIMIT });
  const why =
    result.indexBuilt === undefined
      ? 'this store has no text index Statehouse may add'
      : `Statehouse's search index of this store is being built (${result.indexBuilt}%), and answers once it holds every session`;
  const how =
    result.method === 'index'
      ? `Searched every event of ${appName} through the text index.`
      : result.coverage
        ? `Read the events of ${result.coverage.searched.toLocaleString('en')} of ${result.coverage.total.toLocaleString('en')} sessions, newest first, within the time budget: ${why}, so older sessions were not searched.`
        : `Read the events of every session of ${appName} within the time budget (${why}).`;
  return (
    <div className="mt-4 space-y-2">
      <p role="status" className="text-sm text-muted">
        {result.hits.length === 0 ? 'No event found. ' : `${result.hits.length}${result.hits.length === LIMIT ? '+' : ''} events. `}
        {how}
      </p>
      {result.hits.length === 0 ? (
        <EmptyState title={`No event of ${appName} contains “${text}”`}>Try fewer characters, a tool name or an error code.</EmptyState>
      ) : (
        <ListTable caption={`Events of ${appName} containing “${text}”`}>
          <ListHead>
            <Header>Session</Header>
            <Header>User</Header>
            <Header numeric>Event</Header>
            <Header>Author</Header>
            <Header>Time</Header>
            <Header>Text</Header>
          </ListHead>
          <tbody className="divide-y divide-border">
            {result.hits.map((hit) => (
              <Row key={`${hit.userId}\u0000${hit.sessionId}\u0000${hit.seq}`}>
                <Cell>
                  <IdLink
                    href={`${sessionPath(appName, hit.userId, hit.sessionId)}?${new URLSearchParams({ text }).toString()}`}
                    label={`Session ${hit.sessionId}, event #${hit.seq}`}
                  >
                    {hit.sessionId}
                  </IdLink>
                </Cell>
                <Cell className="font-mono break-all">{hit.userId}</Cell>
                <Cell numeric>#{hit.seq}</Cell>
                <Cell className="break-all">{hit.author}</Cell>
                <Cell>
                  <RelativeTime seconds={hit.timestamp} now={now} />
                </Cell>
                <Cell className="max-w-md break-words text-xs">{hit.snippet}</Cell>
              </Row>
            ))}
          </tbody>
        </ListTable>
      )}
    </div>
  );
}
