// Whether another process holds a SQLite lock on an agent's file, from the
// kernel's table of POSIX locks (Linux's /proc/locks), without taking one.
//
// An agent that has read in a transaction and now writes is refused at once
// (SQLITE_BUSY, no busy wait) if anyone holds the file's RESERVED lock at that
// instant, and a console that tries to take the file while the agent reads
// holds RESERVED for the moment of its try. So the console looks before it
// tries: while any other process holds a lock in the range SQLite locks, it
// waits instead. Rollback-journal files are locked on the database file's
// PENDING..SHARED bytes; WAL files on the -shm file's write, checkpoint,
// recovery and read-mark bytes (a connection's lasting DMS lock, byte 128, is
// not a transaction and is left out).
import { readFileSync, statSync } from 'node:fs';

const LOCK_TABLE = '/proc/locks';

/** SQLite's lock bytes (os_unix.c): PENDING_BYTE 0x40000000, RESERVED_BYTE +1, SHARED_FIRST +2, SHARED_SIZE 510. */
const ROLLBACK_RANGE = { file: '', first: 0x40000000, last: 0x40000000 + 2 + 510 - 1 };
/** WAL_WRITE_LOCK .. the last WAL_READ_LOCK, at offset 120 of the -shm file (wal.c). */
const WAL_RANGE = { file: '-shm', first: 120, last: 127 };

export interface LockTableView {
  /** Whether a process other than this one holds a lock in SQLite's range of the file now. */
  othersHold(): boolean;
  /** Whether the table lists this process's own lock (call while holding the file): false means it does not describe this file. */
  showsOwnLock(): boolean;
}

interface Entry {
  pid: string;
  file: string;
  first: number;
  last: number;
}

function readTable(): Entry[] {
  const entries: Entry[] = [];
  for (const line of readFileSync(LOCK_TABLE, 'utf8').split('\n')) {
    // "12: POSIX  ADVISORY  READ 4242 fe:00:5409054 1073741826 1073742335"; a waiter's line ("12: -> POSIX ...") holds nothing.
    const fields = line.trim().split(/\s+/);
    if (fields[1] !== 'POSIX') continue;
    const [pid, file, first, last] = fields.slice(4, 8);
    if (!pid || !file || !first || !last) continue;
    entries.push({ pid, file, first: Number(first), last: last === 'EOF' ? Infinity : Number(last) });
  }
  return entries;
}

/** `major:minor:inode` as the lock table spells a file (two hex digits at least). */
function tableName(path: string): string | undefined {
  try {
    const { dev, ino } = statSync(path);
    // glibc's dev_t: major in bits 8-19 and 32-43, minor in bits 0-7 and 20-31.
    const major = (Math.floor(dev / 0x100) % 0x1000) | (Math.floor(dev / 0x1_0000_0000) & ~0xfff);
    const minor = (dev % 0x100) | (Math.floor(dev / 0x1000) & ~0xff);
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    return `${hex(major)}:${hex(minor)}:${ino}`;
  } catch {
    return undefined;
  }
}

/** A view of the lock table for the SQLite file at `path` in `journalMode`, or undefined where there is no table to read. */
export function lockTableView(path: string, journalMode: string): LockTableView | undefined {
  try {
    readFileSync(LOCK_TABLE, 'utf8');
  } catch {
    return undefined;
  }
  const range = journalMode.toLowerCase() === 'wal' ? WAL_RANGE : ROLLBACK_RANGE;
  const self = String(process.pid);
  const holders = (): Entry[] => {
    // The -shm file comes and goes with the connections: named afresh at each look.
    const name = tableName(path + range.file);
    if (!name) return [];
    return readTable().filter((entry) => entry.file === name && entry.first <= range.last && entry.last >= range.first);
  };
  return {
    othersHold: () => holders().some((entry) => entry.pid !== self),
    showsOwnLock: () => holders().some((entry) => entry.pid === self),
  };
}
