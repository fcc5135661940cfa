import { StoreLink } from '@/components/nav/store-link';
import { Timestamp } from '@/components/state';
import { Cell, Header, ListHead, ListTable, Row } from '@/components/lists/table';
import type { AuditRecord } from '@/lib/session-service/audit-log';
import { appPath, sessionPath, userPath } from '@/lib/paths';
import { prefixedKey } from '@/lib/session-service/scope';

/** Characters of a value or detail shown in the table; the export has them whole. */
const SHOWN = 120;
const short = (text: string | null) => (text === null ? null : text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text);

/** The log's records, newest first: when, who, what, where, and the change or detail. */
export function AuditTable({ records }: { records: AuditRecord[] }) {
  return (
    <ListTable caption="Audit log, newest first">
      <ListHead>
        <Header>When</Header>
        <Header>Who</Header>
        <Header>What</Header>
        <Header>Where</Header>
        <Header>Change or detail</Header>
      </ListHead>
      <tbody className="divide-y divide-border">
        {records.map((record) => (
          <Row key={record.id}>
            <Cell className="whitespace-nowrap text-xs">
              <Timestamp seconds={record.time} />
            </Cell>
            <Cell className="font-medium">{record.actor}</Cell>
            <Cell>
              <span className="rounded bg-surface-muted px-1.5 py-0.5 text-xs font-semibold">{record.action}</span>
            </Cell>
            <Cell className="text-xs">
              <Where record={record} />
            </Cell>
            <Cell className="max-w-md text-xs">
              <Change record={record} />
            </Cell>
          </Row>
        ))}
      </tbody>
    </ListTable>
  );
}

function Where({ record }: { record: AuditRecord }) {
  const link = 'font-mono break-all text-accent hover:underline';
  return (
    <span className="block min-w-32">
      <StoreLink href={appPath(record.appName)} prefetch={false} className={link}>
        {record.appName}
      </StoreLink>
      {record.userId ? (
        <>
          {' / '}
          <StoreLink href={userPath(record.appName, record.userId)} prefetch={false} className={link}>
            {record.userId}
          </StoreLink>
        </>
      ) : null}
      {record.userId && record.sessionId ? (
        <>
          {' / '}
          <StoreLink href={sessionPath(record.appName, record.userId, record.sessionId)} prefetch={false} className={link}>
            {record.sessionId}
          </StoreLink>
        </>
      ) : null}
    </span>
  );
}

function Change({ record }: { record: AuditRecord }) {
  if (record.key !== null && record.scope !== null) {
    return (
      <span className="block break-words">
        <code className="font-semibold">{prefixedKey(record.scope, record.key)}</code>{' '}
        <code className="text-muted">{short(record.oldValue) ?? '(absent)'}</code> <span aria-label="becomes">→</span>{' '}
        <code>{short(record.newValue) ?? '(removed)'}</code>
        {record.reason ? <span className="block text-muted">why: {short(record.reason)}</span> : null}
      </span>
    );
  }
  return (
    <span className="block break-words">
      {short(record.detail)}
      {record.reason ? (
        <span className="block text-muted">
          {record.source === 'send' ? 'outcome' : 'why'}: {short(record.reason)}
        </span>
      ) : null}
    </span>
  );
}
